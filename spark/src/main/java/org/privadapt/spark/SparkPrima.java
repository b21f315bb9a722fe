package org.privadapt.spark;

import org.privadapt.math.CompensatedSums;
import java.util.ArrayList;
import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.prima.Partition;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.SecondMomentRelease;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * PRIMA's (and PRISA's) target moments on Spark: {@link Prima#noisyMoments(Prima.MomentSource, PrimaConfig, String, long,
 * PrivacySession)} (the same plan, the same single charge before any noise, the same noise steps on the driver) over a
 * {@link Prima.MomentSource} whose exact moments are one aggregate over the rows, each row clipped on the executor by
 * the in-process row map {@link Prima#clipRow} (row bound R, then each block to its bound). Every partitioning works
 * (single, random, forward selection: its stage-1 full moments are a second aggregate).
 */
public final class SparkPrima {
    private SparkPrima() {
    }

    /**
     * The target's noisy moments from rows on Spark. The checks the in-process path makes on a dataset (rows present,
     * every value finite) are made before the charge, in the same pass as the first moments asked for
     * ({@link #checkedMomentSource}); the layout is public (named columns).
     */
    public static Prima.NoisyMoments noisyMoments(SparkTable target, PrimaConfig cfg, String method, long seed, PrivacySession session)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        return Prima.noisyMoments(checkedMomentSource(target, cfg, seed), cfg, method, seed, session);
    }

    /**
     * One pass over the rows, before anything is charged: the checks {@link SparkTable#requireValid} makes (refused
     * here, as it refuses) and, in the same aggregate, the exact moments {@link Prima#noisyMoments(Prima.MomentSource,
     * PrimaConfig, String, long, PrivacySession)} asks for first (the final partition's for single and random, which
     * are public: the partition from the seed; the full moments for forward selection), kept for that ask: no noise,
     * nothing released, until the charge (the streaming engine's {@code StreamedMoments.prepare}). Any other ask
     * (forward selection's chosen partition) is a new aggregate.
     */
    static Prima.MomentSource checkedMomentSource(SparkTable target, PrimaConfig cfg, long seed) {
        int d = target.dimension();
        Prima.FirstAsk ask = Prima.FirstAsk.of(cfg, d, seed);
        Partition first = ask.partition();
        double[] firstBounds = ask.blockBounds();
        int[][] blocks = blocks(first);
        int[] blockOf = Prima.blockIndex(first);
        double rowBound = cfg.rowBound();
        double[] bounds = firstBounds == null ? null : firstBounds.clone();
        boolean labelled = target.labelled();
        boolean blas = SparkVectors.isFeaturesColumn(target);
        Checked both = RowAggregation.aggregate(target,
                () -> new Checked(new SparkTable.Counter(labelled), new MomentAcc(d, rowBound, blocks, blockOf, bounds, blas)));
        SparkTable.require(both.counter.result());
        SecondMomentRelease.ExactMoments cached = exact(both.moments, first, blocks);
        return Prima.answeringFirst(ask, cached, momentSource(target, cfg));
    }

    private static int[][] blocks(Partition partition) {
        int[][] blocks = new int[partition.size()][];
        for (int b = 0; b < blocks.length; b++) {
            blocks[b] = partition.block(b);
        }
        return blocks;
    }

    private static SecondMomentRelease.ExactMoments exact(MomentAcc total, Partition partition, int[][] blocks) {
        List<DenseMatrix> grams = new ArrayList<>();
        for (int b = 0; b < blocks.length; b++) {
            grams.add(Triangles.symmetric(total.grams, total.offsets[b], blocks[b].length));
        }
        return new SecondMomentRelease.ExactMoments(partition, grams, total.sums.values(), total.count);
    }

    /**
     * The row checks and the moments in one aggregate: a row with a missing or non-finite value is counted (and the
     * table refused, before any charge) and kept out of the moments.
     */
    static final class Checked implements RowAggregation.Accumulator<Checked> {
        private static final long serialVersionUID = 1L;
        final SparkTable.Counter counter;
        final MomentAcc moments;

        Checked(SparkTable.Counter counter, MomentAcc moments) {
            this.counter = counter;
            this.moments = moments;
        }

        @Override
        public void add(double[] features, String label) {
            addBlock(new double[][] {features}, new String[] {label}, 1);
        }

        @Override
        public void addBlock(double[][] rows, String[] labels, int count) {
            counter.addBlock(rows, labels, count); // reads the rows only
            double[][] finite = new double[count][];
            int n = 0;
            for (int i = 0; i < count; i++) {
                if (allFinite(rows[i])) {
                    finite[n++] = rows[i];
                }
            }
            if (n > 0) {
                moments.addBlock(finite, null, n);
            }
        }

        @Override
        public boolean takesSparseBlocks() {
            return true;
        }

        /** The counts, then the moments of the finite rows, from the rows' non-zeros. */
        @Override
        public void addSparseBlock(SparseBlock block, String[] labels) {
            counter.addSparseBlock(block, labels);
            moments.addSparseBlock(block, labels);
        }

        private static boolean allFinite(double[] x) {
            for (double v : x) {
                if (!Double.isFinite(v)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void merge(Checked o) {
            counter.merge(o.counter);
            moments.merge(o.moments);
        }
    }

    /**
     * The target's release artifact from rows on Spark: {@link #noisyMoments}, then the in-process post-processing
     * ({@link Prima#release(Prima.NoisyMoments, PrimaConfig, String, String, String, PrivacySession)}).
     *
     * @param preprocessing the row-local preprocessing the rows already had (recorded in the artifact, public)
     */
    public static TargetRelease release(SparkTable target, PrimaConfig cfg, String preprocessing, String method, long seed,
                                        String runId, PrivacySession session)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        return Prima.release(noisyMoments(target, cfg, method, seed, session), cfg, preprocessing, method, runId, session);
    }

    /** The exact moments of the table's rows, clipped as {@link Prima.MomentSource} states, as Spark aggregates. */
    public static Prima.MomentSource momentSource(SparkTable table, PrimaConfig cfg) {
        return new Prima.MomentSource() {
            @Override
            public int dimension() {
                return table.dimension();
            }

            @Override
            public SecondMomentRelease.ExactMoments moments(Partition partition, double[] blockBounds) {
                return exactMoments(table, cfg.rowBound(), partition, blockBounds);
            }
        };
    }

    /** The exact moments over {@code partition} of the rows clipped to R and (bounds not null) each block to its bound. */
    public static SecondMomentRelease.ExactMoments exactMoments(SparkTable table, double rowBound, Partition partition,
                                                                double[] blockBounds) {
        if (partition.dimension() != table.dimension()) {
            throw new IllegalArgumentException("partition of " + partition.dimension() + " features, table of " + table.dimension());
        }
        if (blockBounds != null && blockBounds.length != partition.size()) {
            throw new IllegalArgumentException(blockBounds.length + " bounds for " + partition.size() + " blocks");
        }
        int d = table.dimension();
        int[][] blocks = blocks(partition);
        int[] blockOf = Prima.blockIndex(partition);
        double[] bounds = blockBounds == null ? null : blockBounds.clone();
        boolean blas = SparkVectors.isFeaturesColumn(table);
        MomentAcc total = RowAggregation.aggregate(table, () -> new MomentAcc(d, rowBound, blocks, blockOf, bounds, blas));
        return exact(total, partition, blocks);
    }

    /**
     * Per partition: the blocks' Gram upper triangles and the column sums (compensated over blocks of rows, each block
     * summed plainly: {@link BlockSums}), the row count (exact).
     */
    static final class MomentAcc implements RowAggregation.Accumulator<MomentAcc> {
        private static final long serialVersionUID = 1L;
        private final double rowBound;
        private final int[][] blocks;
        private final int[] blockOf;
        private final double[] bounds;
        private final boolean whole;
        private final boolean blas;
        final int[] offsets;
        final CompensatedSums grams;
        final CompensatedSums sums;
        long count;
        private transient int[] local; // each feature's position in its block of the partition

        MomentAcc(int d, double rowBound, int[][] blocks, int[] blockOf, double[] bounds) {
            this(d, rowBound, blocks, blockOf, bounds, false);
        }

        /**
         * @param blas each block's Gram matrix by one BLAS call per block of the partition ({@code LinAlg.gram}, the
         *             in-process and streaming engines' kernel) instead of the Java kernel ({@link BlockSums})
         */
        MomentAcc(int d, double rowBound, int[][] blocks, int[] blockOf, double[] bounds, boolean blas) {
            this.blas = blas;
            this.rowBound = rowBound;
            this.blocks = blocks;
            this.blockOf = blockOf;
            this.bounds = bounds;
            this.whole = blocks.length == 1 && isIdentity(blocks[0], d);
            this.offsets = new int[blocks.length];
            int size = 0;
            for (int b = 0; b < blocks.length; b++) {
                offsets[b] = size;
                size += Triangles.size(blocks[b].length);
            }
            this.grams = new CompensatedSums(size);
            this.sums = new CompensatedSums(d);
        }

        @Override
        public void add(double[] row, String label) {
            addBlock(new double[][] {row}, null, 1);
        }

        /**
         * Each row clipped by {@link Prima#clipRow} as before; then the block's plain sums (per block of the partition
         * the upper triangle of its Gram matrix, {@link BlockSums#addOuterUpper}; the column sums) added into the
         * compensated sums: the streaming engine's per-block sum.
         */
        @Override
        public void addBlock(double[][] rows, String[] labels, int m) {
            int d = sums.size();
            double[][] clipped = new double[m][];
            for (int i = 0; i < m; i++) {
                clipped[i] = Prima.clipRow(rows[i], rowBound, blockOf, bounds);
            }
            for (int b = 0; b < blocks.length; b++) {
                int len = blocks[b].length;
                double[] g = new double[Triangles.size(len)];
                if (blas) {
                    gramUpper(clipped, m, blocks[b], g);
                } else {
                    BlockSums.addOuterUpper(whole ? clipped : BlockSums.columns(clipped, m, blocks[b]), m, len, g);
                }
                BlockSums.addTo(grams, offsets[b], g);
            }
            double[] s = new double[d];
            BlockSums.addRows(clipped, m, d, s);
            BlockSums.addTo(sums, 0, s);
            count += m;
        }

        @Override
        public boolean takesSparseBlocks() {
            return true;
        }

        /**
         * The same sums from the rows' non-zeros (rows with a non-finite value skipped, as {@link Checked} skips them):
         * each row clipped in place by {@link Prima#clipEntriesInPlace} (the dense row's clipped values), its entries
         * added to the column sums, and each pair of its entries in one block of the partition to that block's upper
         * triangle (at their positions in the block), as the dense kernels add them without the zeros.
         */
        @Override
        public void addSparseBlock(SparseBlock block, String[] labels) {
            int d = sums.size();
            if (local == null) {
                local = new int[d];
                for (int[] cols : blocks) {
                    for (int p = 0; p < cols.length; p++) {
                        local[cols[p]] = p;
                    }
                }
            }
            double[] v = block.values();
            int[] cols = block.indices();
            double[][] g = new double[blocks.length][];
            double[] s = new double[d];
            int m = 0;
            for (int i = 0; i < block.rows(); i++) {
                int from = block.start(i);
                int to = block.end(i);
                boolean finite = true;
                for (int k = from; k < to && finite; k++) {
                    finite = Double.isFinite(v[k]);
                }
                if (!finite) {
                    continue;
                }
                m++;
                Prima.clipEntriesInPlace(v, cols, from, to, rowBound, blockOf, bounds);
                for (int b2 = from; b2 < to; b2++) {
                    int jb = cols[b2];
                    s[jb] += v[b2];
                    int blk = blocks.length == 1 ? 0 : blockOf[jb];
                    double[] gb = g[blk] != null ? g[blk] : (g[blk] = new double[Triangles.size(blocks[blk].length)]);
                    for (int a = from; a <= b2; a++) {
                        int ja = cols[a];
                        if (blocks.length > 1 && blockOf[ja] != blk) {
                            continue;
                        }
                        int p = local[ja];
                        int q = local[jb];
                        if (p > q) {
                            int t = p;
                            p = q;
                            q = t;
                        }
                        gb[(int) ((long) q * (q + 1) / 2) + p] += v[a] * v[b2];
                    }
                }
            }
            for (int b = 0; b < blocks.length; b++) {
                if (g[b] != null) {
                    BlockSums.addTo(grams, offsets[b], g[b]);
                }
            }
            BlockSums.addTo(sums, 0, s);
            count += m;
        }

        /**
         * The upper triangle (packed as {@link Triangles} lays it out) of the Gram matrix of the rows' entries
         * {@code idx}: the rows gathered row by row into one array (whole rows by contiguous copies), one symmetric
         * rank-m update of the rows as stored ({@code LinAlg.gramOfRows}).
         */
        private static void gramUpper(double[][] rows, int m, int[] idx, double[] g) {
            int len = idx.length;
            double[] a = new double[m * len]; // row by row (contiguous copies), the Gram of the rows by one dsyrk
            boolean whole = m > 0 && len == rows[0].length && isIdentity(idx, len);
            for (int i = 0; i < m; i++) {
                double[] x = rows[i];
                if (whole) {
                    System.arraycopy(x, 0, a, i * len, len);
                } else {
                    for (int p = 0; p < len; p++) {
                        a[i * len + p] = x[idx[p]];
                    }
                }
            }
            DenseMatrix gram = org.privadapt.math.LinAlg.gramOfRows(a, m, len);
            double[] full = gram.data();
            for (int q = 0, t = 0; q < len; q++) {
                System.arraycopy(full, q * len, g, t, q + 1);
                t += q + 1;
            }
        }

        private static boolean isIdentity(int[] idx, int d) {
            if (idx.length != d) {
                return false;
            }
            for (int j = 0; j < d; j++) {
                if (idx[j] != j) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void merge(MomentAcc o) {
            grams.merge(o.grams);
            sums.merge(o.sums);
            count += o.count;
        }
    }
}
