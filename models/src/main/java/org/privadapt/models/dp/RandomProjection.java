package org.privadapt.models.dp;

import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

/**
 * A public Gaussian random projection {@code z = x P} from d to p dimensions, P a d x p matrix of independent
 * N(0, 1/p) entries (so that {@code E ||x P||^2 = ||x||^2}) drawn from a public seed: it is a function of (seed, d, p)
 * alone, never of the data, so projecting the rows before a DP release costs no privacy (the release's rows are
 * then {@code x P}, bounded after the projection as the release states).
 *
 * <p>P is not held whole (unless a caller asks for it, {@link #matrix}): it is generated in blocks of {@value #BLOCK} input coordinates, block b from its own
 * generator seeded by (seed, b), so that the d x p matrix costs {@code BLOCK * p * 8} bytes at a time whatever d is
 * (d = 152,543 sparse in the spam suite), and the same P is regenerated, block by block, to map a p-dimensional model
 * back to the input space ({@link #backProject}). Time: {@code O(d p)} Gaussian draws per pass plus the products
 * ({@code O(nnz p)} for a sparse X).
 *
 * <p>When {@code p >= d} the projection is the identity (no draw, no cost).
 */
public final class RandomProjection {
    /** Input coordinates per generated block of P. */
    public static final int BLOCK = 2048;

    private final long seed;
    private final int inputDim;
    private final int outputDim;

    /**
     * @param seed the public seed (recorded in the plan's description)
     * @param inputDim d
     * @param maxDim the largest output dimension; p = min(d, maxDim)
     */
    public RandomProjection(long seed, int inputDim, int maxDim) {
        if (inputDim < 1 || maxDim < 1) {
            throw new IllegalArgumentException("dimensions must be >= 1, got d " + inputDim + " and p " + maxDim);
        }
        this.seed = seed;
        this.inputDim = inputDim;
        this.outputDim = Math.min(inputDim, maxDim);
    }

    /** Whether this is the identity (p = d: no projection). */
    public boolean identity() {
        return outputDim == inputDim;
    }

    public int inputDim() {
        return inputDim;
    }

    /** p. */
    public int outputDim() {
        return outputDim;
    }

    public long seed() {
        return seed;
    }

    /** The rows projected: {@code X P} (n x p, dense), or X itself when the projection is the identity. */
    public FeatureMatrix apply(FeatureMatrix x) {
        if (x.cols() != inputDim) {
            throw new IllegalArgumentException("rows have " + x.cols() + " columns, the projection expects " + inputDim);
        }
        if (identity()) {
            return x;
        }
        DenseMatrix out = DenseMatrix.zeros(x.rows(), outputDim);
        int blocks = (inputDim + BLOCK - 1) / BLOCK;
        for (int b = 0; b < blocks; b++) {
            int from = b * BLOCK;
            int to = Math.min(inputDim, from + BLOCK);
            FeatureMatrix part = blocks == 1 ? x : x.selectColumns(range(from, to));
            out.addScaledInPlace(1.0, part.multiply(block(b, to - from)));
        }
        return out;
    }

    /**
     * P whole (d x p, dense; the identity when the projection is), assembled from the same blocks {@link #apply} draws:
     * for a caller that projects many small batches of rows (an engine's executors, block by block) and can hold
     * {@code d p} doubles, instead of drawing P again for every batch.
     */
    public DenseMatrix matrix() {
        if (identity()) {
            return DenseMatrix.identity(inputDim);
        }
        DenseMatrix out = DenseMatrix.zeros(inputDim, outputDim);
        int blocks = (inputDim + BLOCK - 1) / BLOCK;
        for (int b = 0; b < blocks; b++) {
            int from = b * BLOCK;
            int len = Math.min(inputDim, from + BLOCK) - from;
            DenseMatrix part = block(b, len);
            for (int c = 0; c < outputDim; c++) {
                System.arraycopy(part.data(), c * len, out.data(), c * inputDim + from, len);
            }
        }
        return out;
    }

    /**
     * A p x K model mapped back to the input space: {@code P w} (d x K), so that {@code x (P w) = (x P) w}; w itself when
     * the projection is the identity.
     */
    public DenseMatrix backProject(DenseMatrix w) {
        if (w.rows() != outputDim) {
            throw new IllegalArgumentException("model has " + w.rows() + " rows, the projection's output has " + outputDim);
        }
        if (identity()) {
            return w;
        }
        int k = w.cols();
        DenseMatrix out = DenseMatrix.zeros(inputDim, k);
        int blocks = (inputDim + BLOCK - 1) / BLOCK;
        for (int b = 0; b < blocks; b++) {
            int from = b * BLOCK;
            int to = Math.min(inputDim, from + BLOCK);
            DenseMatrix part = block(b, to - from).multiply(w); // (to - from) x K
            for (int c = 0; c < k; c++) {
                System.arraycopy(part.data(), c * (to - from), out.data(), c * inputDim + from, to - from);
            }
        }
        return out;
    }

    /** Block b of P: rows [b BLOCK, b BLOCK + len), p columns, from the generator seeded by (seed, b). */
    DenseMatrix block(int b, int len) {
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L * (b + 1));
        double scale = 1.0 / Math.sqrt(outputDim);
        double[] a = new double[len * outputDim];
        for (int i = 0; i < a.length; i++) {
            a[i] = r.nextGaussian() * scale;
        }
        return new DenseMatrix(len, outputDim, a);
    }

    private static int[] range(int from, int to) {
        int[] idx = new int[to - from];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = from + i;
        }
        return idx;
    }

    /** Bytes of P held at once: one block. */
    public long peakProjectionBytes() {
        return identity() ? 0 : 8L * Math.min(BLOCK, inputDim) * outputDim;
    }
}
