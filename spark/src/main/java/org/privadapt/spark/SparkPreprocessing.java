package org.privadapt.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.data.preprocess.Preprocessing;

/**
 * Row-local preprocessing ({@code l2}, {@code scale=K}, {@code clip=B}, {@code minmax=LO:HI}, ...) of a
 * {@link SparkTable}'s rows on the executors, by the in-process code: each partition's rows go, in chunks, through
 * {@link Preprocessing#fitAndApply} on a small in-memory dataset. The steps are row-local (each row changed from its own
 * values and public parameters only), so a chunk gives each row what the whole matrix would; a step fitted on the data
 * is refused (it would read other rows outside the privacy accounting).
 */
public final class SparkPreprocessing {
    /** Rows per in-memory chunk on an executor. */
    static final int CHUNK = 1024;

    private SparkPreprocessing() {
    }

    /** The table with {@code spec} applied to every row (the same table for {@code none}). */
    public static SparkTable apply(SparkTable table, String spec) {
        Preprocessing p = Preprocessing.parse(spec);
        if (!p.dataDependentSteps().isEmpty()) {
            throw new IllegalArgumentException("preprocessing step(s) " + p.dataDependentSteps() + " are fitted on the rows, not row-local");
        }
        if (p.steps().isEmpty()) {
            return table;
        }
        String canonical = p.spec();
        int d = table.dimension();
        boolean labelled = table.labelled();
        MapPartitionsFunction<Row, Row> f = it -> new Chunks(it, canonical, d, labelled);
        Dataset<Row> out = table.rows().mapPartitions(f, Encoders.row(table.rows().schema()));
        return new SparkTable(out, table.featureNames(), table.labelColumn());
    }

    /** The rows of one partition, preprocessed a chunk at a time. */
    private static final class Chunks implements Iterator<Row> {
        private final Iterator<Row> in;
        private final Preprocessing steps;
        private final int d;
        private final boolean labelled;
        private final List<Row> buffer = new ArrayList<>();
        private int next;

        Chunks(Iterator<Row> in, String spec, int d, boolean labelled) {
            this.in = in;
            this.steps = Preprocessing.parse(spec);
            this.d = d;
            this.labelled = labelled;
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
            while (rows.size() < CHUNK && in.hasNext()) {
                Row r = in.next();
                rows.add(SparkTable.features(r, d));
                labels.add(labelled ? SparkTable.label(r) : null);
            }
            if (rows.isEmpty()) {
                return false;
            }
            org.privadapt.data.Dataset chunk = new org.privadapt.data.Dataset("spark-partition",
                    DenseMatrix.fromRows(rows.toArray(new double[0][])), null, null, null);
            FeatureMatrix x = steps.fitAndApply(chunk).features();
            DenseMatrix m = x.toDense();
            for (int i = 0; i < rows.size(); i++) {
                double[] v = new double[d];
                for (int j = 0; j < d; j++) {
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
}
