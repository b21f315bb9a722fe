package org.privadapt.spark;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;

/**
 * A party's rows on Spark, as the releases read them: a {@code Dataset<Row>} whose first column, {@value #FEATURES},
 * is an {@code array<double>} of the {@link #featureNames} in that order, and (when labelled) whose second column,
 * {@value #LABEL}, is the label as a string. Made by {@link SparkData}. The layout (d, the feature names) is given by
 * the caller, not read from the rows, so it is public like an explicit {@code --dimension}.
 *
 * @param rows         the rows (never collected to the driver by the releases)
 * @param featureNames the feature columns' names, in the order of the features array
 * @param labelColumn  the label column's name in the source, or null for unlabelled rows
 */
public record SparkTable(Dataset<Row> rows, List<String> featureNames, String labelColumn, String blockMap) {
    public static final String FEATURES = "features";
    public static final String LABEL = "label";

    /** A table whose rows are read as they are. */
    public SparkTable(Dataset<Row> rows, List<String> featureNames, String labelColumn) {
        this(rows, featureNames, labelColumn, null);
    }

    /**
     * The same rows with a row-local preprocessing applied as {@link RowAggregation} reads them, a block at a time (the
     * in-process code on each block, no Spark stage between): for the aggregates only. A path that reads the rows
     * otherwise ({@code Row}s) takes a table {@link SparkPreprocessing#apply} made instead, and refuses this one.
     */
    public SparkTable withBlockMap(String preprocessing) {
        org.privadapt.data.preprocess.Preprocessing p = org.privadapt.data.preprocess.Preprocessing.parse(preprocessing);
        if (!p.dataDependentSteps().isEmpty()) {
            throw new IllegalArgumentException("preprocessing step(s) " + p.dataDependentSteps() + " are fitted on the rows, not row-local");
        }
        return new SparkTable(rows, featureNames, labelColumn, p.steps().isEmpty() ? null : p.spec());
    }

    public SparkTable {
        featureNames = List.copyOf(featureNames);
        if (featureNames.isEmpty()) {
            throw new IllegalArgumentException("no feature columns");
        }
        String[] cols = rows.columns();
        if (cols.length < 1 || !FEATURES.equals(cols[0]) || (labelColumn != null && (cols.length < 2 || !LABEL.equals(cols[1])))) {
            throw new IllegalArgumentException("a SparkTable's columns are (" + FEATURES + (labelColumn != null ? ", " + LABEL : "")
                    + "), got " + String.join(", ", cols) + " (make one with SparkData)");
        }
    }

    /** The number of features d (public: given by the caller). */
    public int dimension() {
        return featureNames.size();
    }

    public boolean labelled() {
        return labelColumn != null;
    }

    /** The same table with its rows re-partitioned into {@code n} partitions (round-robin); for tests and tuning. */
    public SparkTable repartition(int n) {
        return new SparkTable(rows.repartition(n), featureNames, labelColumn, blockMap);
    }

    /** A row's features as a new array (a null entry, a missing value, becomes NaN). */
    static double[] features(Row r, int d) {
        Object o = r.get(0);
        if (o == null || !(o instanceof scala.collection.Seq<?>)) { // a features column of vectors (SparkVectors)
            return SparkVectors.features(r, d);
        }
        List<Object> list = r.getList(0);
        if (list.size() != d) {
            throw new IllegalStateException("a row has " + list.size() + " features, the table " + d);
        }
        double[] x = new double[d];
        for (int j = 0; j < d; j++) {
            Object v = list.get(j);
            x[j] = v == null ? Double.NaN : ((Number) v).doubleValue();
        }
        return x;
    }

    /**
     * A row's features as a new array, from Spark's internal row (the {@code array<double>} read with its typed
     * accessor, no boxing; a null entry, a missing value, becomes NaN): the same values as {@link #features(Row, int)}.
     */
    static double[] features(InternalRow r, int d) {
        ArrayData a = r.getArray(0);
        if (a.numElements() != d) {
            throw new IllegalStateException("a row has " + a.numElements() + " features, the table " + d);
        }
        double[] x = new double[d];
        for (int j = 0; j < d; j++) {
            x[j] = a.isNullAt(j) ? Double.NaN : a.getDouble(j);
        }
        return x;
    }

    /** A row's label, or null when missing. */
    static String label(Row r) {
        return r.isNullAt(1) ? null : r.getString(1);
    }

    /** What a pass over the rows found: their number, the rows with a missing or non-finite feature, missing labels. */
    public record Check(long rows, long nonFiniteRows, long missingLabels) {
    }

    /** One pass over the rows counting what {@link #requireValid} refuses (a check, not a release: nothing leaves the party). */
    public Check check() {
        boolean lab = labelled();
        Counter c = RowAggregation.aggregate(this, () -> new Counter(lab));
        return new Check(c.rows, c.nonFinite, c.missingLabels);
    }

    /**
     * Refuses, before anything is charged, rows the in-process path refuses: no rows, a missing or non-finite feature
     * (as {@code Dataset.requireNonEmpty().requireFinite()}), a missing label in a labelled table.
     */
    public Check requireValid() {
        return require(check());
    }

    /** {@link #require} for callers outside this package: refuses what {@link #requireValid} refuses, from a check made elsewhere. */
    public static Check checked(Check c) {
        return require(c);
    }

    /** Refuses what {@link #requireValid} refuses, from a check made elsewhere (e.g. in the same pass as a statistic). */
    static Check require(Check c) {
        if (c.rows() == 0) {
            throw new IllegalArgumentException("the table has no rows");
        }
        if (c.nonFiniteRows() > 0) {
            throw new IllegalArgumentException(c.nonFiniteRows() + " row(s) have a missing or non-finite feature value");
        }
        if (c.missingLabels() > 0) {
            throw new IllegalArgumentException(c.missingLabels() + " row(s) have no label");
        }
        return c;
    }

    /** {@link #check()} and the number of labelled rows whose label is not among the given classes. */
    public record ClassCheck(Check check, long outside) {
    }

    /**
     * One pass over the rows counting what {@link #requireValid} refuses and the labels outside {@code classes} (a
     * check before a charge: nothing leaves the party).
     */
    public ClassCheck checkClasses(List<String> classes) {
        boolean lab = labelled();
        java.util.Set<String> known = new java.util.HashSet<>(classes);
        Counter c = RowAggregation.aggregate(this, () -> new Counter(lab, known));
        return new ClassCheck(new Check(c.rows, c.nonFinite, c.missingLabels), c.outside);
    }

    static final class Counter implements RowAggregation.Accumulator<Counter> {
        private static final long serialVersionUID = 1L;
        private final boolean labelled;
        private final java.util.Set<String> known;
        long rows;
        long nonFinite;
        long missingLabels;
        long outside;

        Counter(boolean labelled) {
            this(labelled, null);
        }

        Counter(boolean labelled, java.util.Set<String> known) {
            this.labelled = labelled;
            this.known = known == null ? null : new java.util.HashSet<>(known);
        }

        @Override
        public void add(double[] x, String label) {
            rows++;
            for (double v : x) {
                if (!Double.isFinite(v)) {
                    nonFinite++;
                    break;
                }
            }
            if (labelled && label == null) {
                missingLabels++;
            } else if (labelled && known != null && !known.contains(label)) {
                outside++;
            }
        }

        @Override
        public boolean takesSparseBlocks() {
            return true;
        }

        /** The same counts from the rows' non-zeros (a zero is finite). */
        @Override
        public void addSparseBlock(SparseBlock block, String[] labels) {
            for (int i = 0; i < block.rows(); i++) {
                rows++;
                for (int k = block.start(i); k < block.end(i); k++) {
                    if (!Double.isFinite(block.value(k))) {
                        nonFinite++;
                        break;
                    }
                }
                String label = labels == null ? null : labels[i];
                if (labelled && label == null) {
                    missingLabels++;
                } else if (labelled && known != null && !known.contains(label)) {
                    outside++;
                }
            }
        }

        Check result() {
            return new Check(rows, nonFinite, missingLabels);
        }

        @Override
        public void merge(Counter o) {
            rows += o.rows;
            nonFinite += o.nonFinite;
            missingLabels += o.missingLabels;
            outside += o.outside;
        }
    }
}
