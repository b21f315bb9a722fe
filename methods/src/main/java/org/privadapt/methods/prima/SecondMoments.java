package org.privadapt.methods.prima;

import java.util.ArrayList;
import java.util.List;
import org.privadapt.math.DenseMatrix;

/**
 * First and second moments of a dataset over the blocks of a partition, exact or noisy: the count n, the feature
 * sums, and each block's Gram matrix {@code X_S^T X_S}. Everything a correlation-alignment method needs (means,
 * variances, block covariances) is a function of these, so when they are a DP release every such quantity is
 * post-processing.
 *
 * @param noiseStd standard deviation of the noise on each released Gram entry (0 for exact moments); it scales
 *                 the noise term of forward selection
 */
public record SecondMoments(Partition partition, double count, double[] sums, List<DenseMatrix> blockGrams, double noiseStd) {

    public SecondMoments {
        sums = sums.clone();
        blockGrams = List.copyOf(blockGrams);
        if (blockGrams.size() != partition.size()) {
            throw new IllegalArgumentException(blockGrams.size() + " Gram blocks for " + partition.size() + " blocks");
        }
    }

    /** The count used for normalising: the released count, floored at 2. */
    public double effectiveCount() {
        return Math.max(2.0, count);
    }

    public double[] mean() {
        double n = effectiveCount();
        double[] m = new double[sums.length];
        for (int j = 0; j < m.length; j++) {
            m[j] = sums[j] / n;
        }
        return m;
    }

    /**
     * Block b's covariance: centred {@code (G - n mu mu^T) / (n - 1)}, or the uncentred second moment {@code G / n}
     * (paper 000's choice).
     */
    public DenseMatrix blockCovariance(int b, boolean centred) {
        DenseMatrix g = blockGrams.get(b);
        double n = effectiveCount();
        int[] idx = partition.block(b);
        DenseMatrix c = DenseMatrix.zeros(idx.length, idx.length);
        for (int q = 0; q < idx.length; q++) {
            for (int p = 0; p < idx.length; p++) {
                double v = g.get(p, q);
                if (centred) {
                    v = (v - sums[idx[p]] * sums[idx[q]] / n) / (n - 1);
                } else {
                    v = v / n;
                }
                c.set(p, q, v);
            }
        }
        return c;
    }

    /** Every block's covariance. */
    public List<DenseMatrix> blockCovariances(boolean centred) {
        List<DenseMatrix> out = new ArrayList<>();
        for (int b = 0; b < partition.size(); b++) {
            out.add(blockCovariance(b, centred));
        }
        return out;
    }

    /** The per-feature variances (diagonals of the centred block covariances), in feature order. */
    public double[] variances() {
        double[] v = new double[partition.dimension()];
        for (int b = 0; b < partition.size(); b++) {
            int[] idx = partition.block(b);
            DenseMatrix c = blockCovariance(b, true);
            for (int p = 0; p < idx.length; p++) {
                v[idx[p]] = c.get(p, p);
            }
        }
        return v;
    }
}
