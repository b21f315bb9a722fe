package org.privadapt.spark;

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
        if (table.blockMap() != null) {
            throw new IllegalArgumentException("a table with a block map is read by the aggregates only");
        }
        if (p.steps().isEmpty()) {
            return table;
        }
        String canonical = p.spec();
        // the output's features are an array<double> whatever the input held (a vector column: SparkVectors)
        return ChunkedRows.map(table, table.featureNames(), true, CHUNK, () -> {
            Preprocessing steps = Preprocessing.parse(canonical);
            return block -> steps.fitAndApply(new org.privadapt.data.Dataset("spark-partition", block, null, null, null))
                    .features().toDense();
        });
    }
}
