package org.privadapt.methods.dpot;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.ot.CostMatrices;
import org.privadapt.math.ot.Coupling;
import org.privadapt.math.ot.Sinkhorn;
import org.privadapt.math.ot.SinkhornOptions;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The experiment of paper 002 §5.1: how far the Wasserstein estimate of DPOT is from the true one as the noise ratio
 * sigma / w grows. {@code Err = |W~ - W| / W}, with W = <gamma_0, C> for the squared Euclidean cost C between the
 * original rows, and W~ = <gamma~, C~> for the debiased noisy cost {@code C~ = ||X_s M + Delta - X_t M||^2 - l sigma^2}
 * (Alg. 1), both couplings from entropic OT at a small regularisation (1e-3 of the cost's range). Whole batch: all
 * rows; minibatch: a random batch of each side per repetition. An accuracy experiment, not a release: its noise is
 * seeded.
 */
public final class WassersteinError {
    private WassersteinError() {
    }

    /** Relative errors, one per repetition. */
    public static double[] errors(DenseMatrix xs, DenseMatrix xt, double noiseRatio, int l, int repetitions, int batch, long seed) {
        NoiseSource noise = NoiseSource.seeded(seed);
        double[] err = new double[repetitions];
        SinkhornOptions opt = SinkhornOptions.defaults().withMaxIterations(5000).withTolerance(1e-7);
        for (int r = 0; r < repetitions; r++) {
            DenseMatrix s = xs;
            DenseMatrix t = xt;
            if (batch > 0) {
                s = xs.selectRows(Dpot.sampleWithoutReplacement(xs.rows(), Math.min(batch, xs.rows()), noise.bits()));
                t = xt.selectRows(Dpot.sampleWithoutReplacement(xt.rows(), Math.min(batch, xt.rows()), noise.bits()));
            }
            double w = value(s, t, opt);
            JlProjection m = JlProjection.draw(xs.cols(), l, noise);
            double sigma = noiseRatio * m.maxRowNorm();
            DenseMatrix ps = s.multiply(m.matrix());
            double[] a = ps.data();
            for (int i = 0; i < a.length; i++) {
                a[i] += sigma * noise.vectors().nextStandard();
            }
            DenseMatrix noisy = CostMatrices.squaredEuclidean(ps, t.multiply(m.matrix()));
            double bias = l * sigma * sigma;
            double[] c = noisy.data();
            for (int i = 0; i < c.length; i++) {
                c[i] -= bias;
            }
            double wTilde = transport(noisy, opt);
            err[r] = Math.abs(wTilde - w) / w;
        }
        return err;
    }

    /** W = <gamma, C> for the squared Euclidean cost between the rows. */
    static double value(DenseMatrix s, DenseMatrix t, SinkhornOptions opt) {
        return transport(CostMatrices.squaredEuclidean(s, t), opt);
    }

    /** <gamma, C> for the entropic coupling of C (solved on C mapped affinely to [0, 1], reg 1e-3), in C's units. */
    static double transport(DenseMatrix c, SinkhornOptions opt) {
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (double v : c.data()) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        double span = hi - lo > 0 ? hi - lo : 1.0;
        DenseMatrix n = c.copy();
        double[] a = n.data();
        for (int i = 0; i < a.length; i++) {
            a[i] = (a[i] - lo) / span;
        }
        Coupling g = Sinkhorn.solve(CostMatrices.uniform(c.rows()), CostMatrices.uniform(c.cols()), n, 1e-3, opt);
        double[] p = g.plan().data();
        double[] cc = c.data();
        double sum = 0;
        for (int i = 0; i < p.length; i++) {
            sum += p[i] * cc[i];
        }
        return sum;
    }
}
