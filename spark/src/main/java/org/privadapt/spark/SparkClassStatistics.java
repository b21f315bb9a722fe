package org.privadapt.spark;

import org.privadapt.math.CompensatedSums;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.AdaSspRowMap;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.models.dp.AdaSsp;
import org.privadapt.models.dp.ClassStatistics;
import org.privadapt.models.dp.NoiseAndSampling;

/**
 * The class-statistics releases of the {@code ncm}, {@code lda} and {@code adassp} learners on Spark: the exact
 * statistic (per-class counts and sums, and for lda and adassp the second moment) is one aggregate over the rows, each
 * row clipped on the executor by the in-process row map ({@link ClassStatistics#normaliseRow},
 * {@link ClassStatistics#clipRow}; for adassp first projected, {@link #adasspExact}); the noise is added once on the
 * driver by the in-process noise step ({@link PrivateLearners#ncmNoise}, {@link PrivateLearners#ldaNoise},
 * {@link PrivateLearners#adasspNoise}) with the caller's noise. The plan (and its charge) is the caller's, as in process.
 *
 * <p>The class set is public and given ({@code classes}, code = position); a label outside it is refused before any
 * noise is drawn, as the in-process statistic refuses a code outside 0..K-1.
 */
public final class SparkClassStatistics {
    private SparkClassStatistics() {
    }

    /** The ncm release: {@link PrivateLearners#ncmNoise} on {@link #ncmExact}. */
    public static ClassStatistics ncmRelease(PrivateLearners.Plan p, SparkTable table, List<String> classes, NoiseAndSampling rnd) {
        if (p.kind() != PrivateLearners.Kind.NCM) {
            throw new IllegalArgumentException("not an ncm plan: " + p.kind().label());
        }
        return PrivateLearners.ncmNoise(p, ncmExact(table, classes), rnd);
    }

    /** The lda release: {@link PrivateLearners#ldaNoise} on {@link #ldaExact}. */
    public static ClassStatistics ldaRelease(PrivateLearners.Plan p, SparkTable table, List<String> classes, NoiseAndSampling rnd) {
        return PrivateLearners.ldaNoise(p, ldaExact(table, classes, PrivateLearners.ldaRowBound(p)), rnd);
    }

    /**
     * The model {@link PrivateLearners#train} fits in process for an ncm or lda plan (its event already charged), from
     * the rows on Spark: the release's noise on the driver, then the nearest-class-mean or LDA network.
     */
    public static org.privadapt.models.nn.Network model(PrivateLearners.Plan p, SparkTable table, List<String> classes,
                                                        org.privadapt.privacy.noise.NoiseSource noise) {
        NoiseAndSampling rnd = new org.privadapt.models.dp.SessionRandomness(noise);
        switch (p.kind()) {
            case NCM:
                return ncmRelease(p, table, classes, rnd).nearestClassMean(classes);
            case LDA:
                return ldaRelease(p, table, classes, rnd).lda(classes, p.config().param("lda-shrinkage", 0.5), 1.0);
            case ADASSP:
                return PrivateLearners.adasspModel(p, PrivateLearners.adasspNoise(p, adasspExact(p, table, classes), rnd),
                        table.dimension(), classes);
            default:
                throw new IllegalArgumentException("learner " + p.kind().label() + ": on Spark the class statistics give ncm, lda or "
                        + "adassp; give learner=ncm, lda or adassp");
        }
    }

    /**
     * The adassp statistic, exact: each row mapped where it is by the release's row map (the public projection, then the
     * bound R: {@link PrivateLearners#adasspRowMap}), then the class counts, the class sums and the second moment of the
     * mapped rows in one aggregate, as {@link AdaSsp#ofSums} takes them; the noise is the caller's, on the driver
     * ({@link PrivateLearners#adasspNoise}), as in process.
     */
    public static AdaSsp adasspExact(PrivateLearners.Plan p, SparkTable table, List<String> classes) {
        AdaSspRowMap rows = PrivateLearners.adasspRowMap(p, table.dimension());
        RowAggregation.RowMap map = adasspMap(null, rows);
        // the mapped rows are within R already; the accumulator's clip to R leaves them as they are
        ClassStatistics s = exact(table, map, rows.outputDim(), classes, rows.rowBound(), true);
        return AdaSsp.ofSums(s.counts(), s.sums().transpose(), s.moment());
    }

    /**
     * The row map of an adassp release on the executors: {@code before} (null: none; PRIMA's clip and group map), then
     * adassp's projection and bound ({@link AdaSspRowMap#applyRows}), block by block.
     */
    static RowAggregation.RowMap adasspMap(RowAggregation.RowMap before, AdaSspRowMap adassp) {
        return new RowAggregation.RowMap() {
            private static final long serialVersionUID = 1L;

            @Override
            public double[] apply(double[] row) {
                return applyBlock(new double[][] {row}, 1)[0];
            }

            @Override
            public double[][] applyBlock(double[][] rows, int m) {
                return adassp.applyRows(before == null ? rows : before.applyBlock(rows, m), m);
            }
        };
    }

    /** The ncm statistic, exact: per-class counts and sums of the unit-normalised rows. */
    public static ClassStatistics ncmExact(SparkTable table, List<String> classes) {
        return exact(table, classes, Double.NaN, false);
    }

    /** The lda statistic, exact: per-class counts and sums and the shared second moment of the rows clipped to R. */
    public static ClassStatistics ldaExact(SparkTable table, List<String> classes, double rowBound) {
        if (!(rowBound > 0) || Double.isInfinite(rowBound)) {
            throw new IllegalArgumentException("row bound must be finite and > 0, got " + rowBound);
        }
        return exact(table, classes, rowBound, true);
    }

    /**
     * @param rowBound R for clipping, or NaN for unit normalisation (ncm)
     */
    static ClassStatistics exact(SparkTable table, List<String> classes, double rowBound, boolean withMoment) {
        return exact(table, null, table.dimension(), classes, rowBound, withMoment);
    }

    /**
     * {@link #ncmExact}/{@link #ldaExact} of the table's rows mapped by {@code map} to rows of {@code d} features where they
     * are (PRIMA's source rows clipped and mapped to a group, {@link SparkPrimaTrain}).
     */
    static ClassStatistics exact(SparkTable table, RowAggregation.RowMap map, int d, List<String> classes, double rowBound,
                                 boolean withMoment) {
        if (!table.labelled()) {
            throw new IllegalArgumentException("class statistics need a label column");
        }
        List<String> names = List.copyOf(classes);
        if (names.isEmpty() || new java.util.HashSet<>(names).size() != names.size()) {
            throw new IllegalArgumentException("the class set must be non-empty without repeats, got " + names);
        }
        Acc total = map == null ? RowAggregation.aggregate(table, () -> new Acc(names, d, rowBound, withMoment))
                : RowAggregation.aggregate(table, map, () -> new Acc(names, d, rowBound, withMoment));
        if (total.unknown > 0) {
            throw new IllegalArgumentException(total.unknown + " row(s) have a label outside the declared classes " + names
                    + " (or none)");
        }
        int k = names.size();
        double[] counts = new double[k];
        for (int c = 0; c < k; c++) {
            counts[c] = total.counts[c];
        }
        DenseMatrix sums = DenseMatrix.zeros(k, d);
        for (int c = 0; c < k; c++) {
            for (int j = 0; j < d; j++) {
                sums.set(c, j, total.sums.value(c * d + j));
            }
        }
        DenseMatrix moment = withMoment ? Triangles.symmetric(total.moment, 0, d) : null;
        return ClassStatistics.ofExact(counts, sums, moment);
    }

    /**
     * Per partition: exact counts (long), class sums and upper triangle of the second moment (compensated over blocks
     * of rows, each block summed plainly: {@link BlockSums}).
     */
    static final class Acc implements RowAggregation.Accumulator<Acc> {
        private static final long serialVersionUID = 1L;
        private final List<String> names;
        private final int d;
        private final double rowBound;
        private transient Map<String, Integer> codes;
        final long[] counts;
        final CompensatedSums sums;
        final CompensatedSums moment;
        long unknown;

        Acc(List<String> names, int d, double rowBound, boolean withMoment) {
            this.names = names;
            this.d = d;
            this.rowBound = rowBound;
            this.counts = new long[names.size()];
            this.sums = new CompensatedSums(names.size() * d);
            this.moment = withMoment ? new CompensatedSums(Triangles.size(d)) : null;
        }

        private int code(String label) {
            if (codes == null) {
                codes = new HashMap<>();
                for (int c = 0; c < names.size(); c++) {
                    codes.put(names.get(c), c);
                }
            }
            Integer c = label == null ? null : codes.get(label);
            return c == null ? -1 : c;
        }

        @Override
        public void add(double[] row, String label) {
            addBlock(new double[][] {row}, new String[] {label}, 1);
        }

        /**
         * Each row normalised ({@link ClassStatistics#normaliseRow}) or clipped ({@link ClassStatistics#clipRow}) as
         * before; then the block's plain per-class sums and second moment ({@link BlockSums}) added into the
         * compensated sums (the streaming engine's per-block sum). Counts are exact.
         */
        @Override
        public void addBlock(double[][] rows, String[] labels, int m) {
            double[][] x = new double[m][];
            int k = counts.length;
            double[] s = new double[k * d];
            int n = 0;
            for (int i = 0; i < m; i++) {
                int c = code(labels[i]);
                if (c < 0) {
                    unknown++;
                    continue;
                }
                counts[c]++;
                double[] z = Double.isNaN(rowBound) ? ClassStatistics.normaliseRow(rows[i]) : ClassStatistics.clipRow(rows[i], rowBound);
                for (int j = 0, off = c * d; j < d; j++) {
                    s[off + j] += z[j];
                }
                x[n++] = z;
            }
            if (n == 0) {
                return;
            }
            BlockSums.addTo(sums, 0, s);
            if (moment != null) {
                double[] g = new double[Triangles.size(d)];
                BlockSums.addOuterUpper(x, n, d, g);
                BlockSums.addTo(moment, 0, g);
            }
        }

        /** The rows' non-zeros only: the class sums by column, the second moment (lda) by pairs of non-zeros. */
        @Override
        public boolean takesSparseBlocks() {
            return true;
        }

        /**
         * The same sums from the rows' non-zeros: each row's norm (the dense row's sum of squares: a zero adds nothing)
         * normalises or clips its non-zeros as {@link ClassStatistics#normaliseRow} or {@link ClassStatistics#clipRow}
         * would, and they are added at their columns, in row order, as the dense block adds them; the second moment's
         * upper triangle gets each pair of a row's non-zeros (the dense kernel's products, without its zeros).
         */
        @Override
        public void addSparseBlock(SparseBlock block, String[] labels) {
            int k = counts.length;
            double[] s = new double[k * d];
            double[] g = moment == null ? null : new double[Triangles.size(d)];
            boolean any = false;
            for (int i = 0; i < block.rows(); i++) {
                int c = code(labels[i]);
                if (c < 0) {
                    unknown++;
                    continue;
                }
                counts[c]++;
                any = true;
                double[] v = block.rowValues(i);
                double[] z = Double.isNaN(rowBound) ? ClassStatistics.normaliseRow(v) : ClassStatistics.clipRow(v, rowBound);
                int from = block.start(i);
                for (int e = 0, off = c * d; e < z.length; e++) {
                    s[off + block.index(from + e)] += z[e];
                }
                if (g != null) {
                    for (int b = 0; b < z.length; b++) {
                        int q = block.index(from + b);
                        int t = (int) ((long) q * (q + 1) / 2);
                        for (int a = 0; a <= b; a++) {
                            g[t + block.index(from + a)] += z[a] * z[b];
                        }
                    }
                }
            }
            if (any) {
                BlockSums.addTo(sums, 0, s);
                if (g != null) {
                    BlockSums.addTo(moment, 0, g);
                }
            }
        }

        @Override
        public void merge(Acc o) {
            for (int c = 0; c < counts.length; c++) {
                counts[c] += o.counts[c];
            }
            sums.merge(o.sums);
            if (moment != null) {
                moment.merge(o.moment);
            }
            unknown += o.unknown;
        }
    }
}
