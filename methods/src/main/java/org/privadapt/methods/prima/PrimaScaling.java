package org.privadapt.methods.prima;

import java.util.Arrays;
import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

/**
 * What both parties of PRIMA do to noisy moments and rows alike: standard deviations from DP variances, the
 * covariance of standardised features, standardised rows, shrinking a block covariance to PSD, and blocks' features
 * side by side. The target's release ({@link PrimaTarget}), the source's training ({@link PrimaSource}) and the
 * model's prediction ({@link SourceModel}) all use these, through {@link Prima}'s package-private entry points.
 */
final class PrimaScaling {
    private PrimaScaling() {
    }

    static PsdShrinking.Result shrink(DenseMatrix c, PrimaConfig cfg) {
        return PsdShrinking.shrink(c, cfg.shrinkTarget() == PrimaConfig.ShrinkTarget.DIAGONAL
                ? PsdShrinking.diagonalTarget(c) : PsdShrinking.defaultTarget(c));
    }

    /** Standard deviations from DP variances, floored at a fraction of the median positive variance; 1 when off. */
    static double[] standardDeviations(SecondMoments m, PrimaConfig cfg) {
        int d = m.partition().dimension();
        double[] sd = new double[d];
        if (!cfg.standardize()) {
            Arrays.fill(sd, 1.0);
            return sd;
        }
        double[] v = m.variances();
        double[] pos = Arrays.stream(v).filter(x -> x > 0).sorted().toArray();
        double median = pos.length == 0 ? 1.0 : pos[pos.length / 2];
        double floor = cfg.varianceFloor() * median;
        for (int j = 0; j < d; j++) {
            sd[j] = Math.sqrt(Math.max(v[j], floor));
        }
        return sd;
    }

    /** {@code D^-1/2 C D^-1/2} for the block's standard deviations (the covariance of standardised features). */
    static DenseMatrix scaled(DenseMatrix cov, int[] idx, double[] sd) {
        DenseMatrix out = cov.copy();
        for (int q = 0; q < idx.length; q++) {
            for (int p = 0; p < idx.length; p++) {
                out.set(p, q, cov.get(p, q) / (sd[idx[p]] * sd[idx[q]]));
            }
        }
        return out;
    }

    /** Rows standardised with the given (DP) mean and sd, when the settings ask for it; dense. */
    static DenseMatrix standardized(FeatureMatrix x, double[] mean, double[] sd, PrimaConfig cfg) {
        DenseMatrix d = x.toDense();
        if (!cfg.standardize()) {
            return d;
        }
        double[] inv = new double[sd.length];
        for (int j = 0; j < sd.length; j++) {
            inv[j] = 1.0 / sd[j];
        }
        return d.minusRowVector(mean).scaleColumnsCopy(inv);
    }

    /** The blocks' features side by side (the one block itself when there is one). */
    static DenseMatrix concat(List<DenseMatrix> blocks) {
        if (blocks.size() == 1) {
            return blocks.get(0);
        }
        int n = blocks.get(0).rows();
        int cols = 0;
        for (DenseMatrix b : blocks) {
            cols += b.cols();
        }
        DenseMatrix out = DenseMatrix.zeros(n, cols);
        int at = 0;
        for (DenseMatrix b : blocks) {
            System.arraycopy(b.data(), 0, out.data(), at * n, b.data().length);
            at += b.cols();
        }
        return out;
    }
}
