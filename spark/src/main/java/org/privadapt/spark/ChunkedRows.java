package org.privadapt.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.UnaryOperator;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.privadapt.math.DenseMatrix;

/**
 * One partition's rows through a map of row blocks, a chunk at a time: the rows' features gathered into a
 * {@code chunk x d} matrix, the map applied (the in-process code on a block: a row-local preprocessing, an encoder),
 * each output row emitted as an {@code array<double>} with the input row's label when {@code labelled}. The map is built
 * on the executor (inside the partition function), so it need not be serializable.
 */
final class ChunkedRows implements Iterator<Row> {
    private final Iterator<Row> in;
    private final int d;
    private final boolean labelled;
    private final int chunk;
    private final UnaryOperator<DenseMatrix> map;
    private final List<Row> buffer = new ArrayList<>();
    private int next;

    ChunkedRows(Iterator<Row> in, int d, boolean labelled, int chunk, UnaryOperator<DenseMatrix> map) {
        this.in = in;
        this.d = d;
        this.labelled = labelled;
        this.chunk = Math.min(chunk, RowAggregation.blockRows(d)); // wide rows: fewer per chunk
        this.map = map;
    }

    @Override
    public boolean hasNext() {
        if (next < buffer.size()) {
            return true;
        }
        buffer.clear();
        next = 0;
        List<double[]> rows = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        while (rows.size() < chunk && in.hasNext()) {
            Row r = in.next();
            rows.add(SparkTable.features(r, d));
            labels.add(labelled ? SparkTable.label(r) : null);
        }
        if (rows.isEmpty()) {
            return false;
        }
        DenseMatrix m = map.apply(DenseMatrix.fromRows(rows.toArray(new double[0][])));
        for (int i = 0; i < rows.size(); i++) {
            double[] v = new double[m.cols()];
            for (int j = 0; j < v.length; j++) {
                v[j] = m.get(i, j);
            }
            // an array<double> value of an external Row is a Scala Seq
            Object seq = scala.collection.immutable.ArraySeq.unsafeWrapArray(v);
            buffer.add(labelled ? RowFactory.create(seq, labels.get(i)) : RowFactory.create(seq));
        }
        return true;
    }

    @Override
    public Row next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return buffer.get(next++);
    }
}
