package org.privadapt.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.UnaryOperator;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.DenseMatrix;

/**
 * One partition's rows through a map of row blocks, a chunk at a time: the rows' features (Spark's internal rows,
 * decoded without boxing: {@link InternalRows}) gathered into a {@code chunk x d} matrix, the table's block map applied
 * when it has one (as {@link RowAggregation} applies it), then the map (the in-process code on a block: a row-local
 * preprocessing, an encoder), each output row emitted as an unsafe {@code array<double>} with the input row's label
 * when {@code labelled}. The map is built on the executor (inside the partition function), so it need not be
 * serializable.
 */
final class ChunkedRows implements Iterator<InternalRow> {
    /** Makes the block map on an executor (serializable: public parameters only). */
    @FunctionalInterface
    interface BlockMap extends Serializable {
        UnaryOperator<DenseMatrix> onExecutor();
    }

    private final Iterator<InternalRow> in;
    private final int d;
    private final SparkVectors.Kind kind;
    private final boolean labelled;
    private final int chunk;
    private final Preprocessing steps;
    private final UnaryOperator<DenseMatrix> map;
    private final InternalRows.Labels names = new InternalRows.Labels();
    private final List<InternalRow> buffer = new ArrayList<>();
    private int next;

    private ChunkedRows(Iterator<InternalRow> in, int d, SparkVectors.Kind kind, boolean labelled, int chunk, String blockMap,
            UnaryOperator<DenseMatrix> map) {
        this.in = in;
        this.d = d;
        this.kind = kind;
        this.labelled = labelled;
        this.chunk = Math.min(chunk, RowAggregation.blockRows(d)); // wide rows: fewer per chunk
        this.steps = blockMap == null ? null : Preprocessing.parse(blockMap);
        this.map = map;
    }

    /**
     * The table's rows mapped a chunk at a time by the map {@code f} makes on each executor: a lazy table of
     * {@code array<double>} features named {@code names} (the map's width), with the table's labels when
     * {@code keepLabels} and the table is labelled.
     */
    static SparkTable map(SparkTable table, List<String> names, boolean keepLabels, int chunk, BlockMap f) {
        int d = table.dimension();
        SparkVectors.Kind kind = SparkVectors.kind(table);
        boolean labelled = keepLabels && table.labelled();
        String blockMap = table.blockMap();
        JavaRDD<InternalRow> out = InternalRows.of(table).mapPartitions(
                it -> new ChunkedRows(it, d, kind, labelled, chunk, blockMap, f.onExecutor()), true);
        return new SparkTable(InternalRows.dataFrame(table, out, labelled), names, labelled ? table.labelColumn() : null);
    }

    @Override
    public boolean hasNext() {
        if (next < buffer.size()) {
            return true;
        }
        buffer.clear();
        next = 0;
        double[][] rows = new double[chunk][];
        String[] labels = new String[chunk];
        int m = 0;
        while (m < chunk && in.hasNext()) {
            InternalRow r = in.next();
            rows[m] = SparkVectors.features(r, d, kind);
            labels[m] = labelled ? names.of(r) : null;
            m++;
        }
        if (m == 0) {
            return false;
        }
        double[][] mapped = RowAggregation.mapped(steps, rows, m, d);
        DenseMatrix out = map.apply(DenseMatrix.fromRows(java.util.Arrays.copyOf(mapped, m)));
        for (int i = 0; i < m; i++) {
            buffer.add(InternalRows.row(out.row(i), labels[i], labelled));
        }
        return true;
    }

    @Override
    public InternalRow next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return buffer.get(next++);
    }
}
