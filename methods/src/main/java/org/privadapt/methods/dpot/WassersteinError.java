package org.privadapt.methods.dpot;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.ot.CostMatrices;
import org.privadapt.math.ot.Coupling;
import org.privadapt.math.ot.Sinkhorn;
import org.privadapt.math.ot.SinkhornOptions;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The experiment of paper 002 §5.1: how far the Wasserstein estimate of DPOT is from the true one as the noise ratio
 * sigma / w grows. {@code Err = |W~ - W| / W}, with W = &lt;gamma_0, C&gt; for the squared Euclidean cost C between the
 * original rows, and W~ = &lt;gamma~, C~&gt; for the debiased noisy cost {@code C~ = ||X_s M + Delta - X_t M||^2 - l sigma^2}
 * (Alg. 1), both couplings from entropic OT at the same absolute regularisation, {@code reg} times the range of the
 * true cost C (so that the noisy problem is not solved at a blurrier effective regularisation than the true one). Whole batch:
 * all rows (W is solved once); minibatch: a random batch of each side per repetition. An accuracy experiment, not a
 * release: its noise is seeded when a seed is given, secure otherwise.
 */
public final class WassersteinError {
    private WassersteinError() {
    }

    /** Relative errors, one per repetition, with seeded noise (reproducible). */
    public static double[] errors(DenseMatrix xs, DenseMatrix xt, double noiseRatio, int l, int repetitions, int batch,
            double reg, long seed) {
        return errors(xs, xt, noiseRatio, l, repetitions, batch, reg, NoiseSource.seeded(seed));
    }

    /** Relative errors, one per repetition, with the noise given. */
    public static double[] errors(DenseMatrix xs, DenseMatrix xt, double noiseRatio, int l, int repetitions, int batch,
            double reg, NoiseSource noise) {
        if (!(reg > 0) || !(noiseRatio >= 0) || l < 1 || repetitions < 1) {
            throw new IllegalArgumentException("need reg > 0, noiseRatio >= 0, l >= 1, repetitions >= 1");
        }
        double[] err = new double[repetitions];
        SinkhornOptions opt = SinkhornOptions.defaults().withMaxIterations(5000).withTolerance(1e-7);
        double wholeSpan = batch > 0 ? Double.NaN : span(CostMatrices.squaredEuclidean(xs, xt));
        double wholeW = batch > 0 ? Double.NaN : value(xs, xt, reg, opt);
        for (int r = 0; r < repetitions; r++) {
            DenseMatrix s = xs;
            DenseMatrix t = xt;
            if (batch > 0) {
                s = xs.selectRows(Dpot.sampleWithoutReplacement(xs.rows(), Math.min(batch, xs.rows()), noise.bits()));
                t = xt.selectRows(Dpot.sampleWithoutReplacement(xt.rows(), Math.min(batch, xt.rows()), noise.bits()));
            }
            DenseMatrix trueCost = batch > 0 ? CostMatrices.squaredEuclidean(s, t) : null;
            double absReg = reg * (batch > 0 ? span(trueCost) : wholeSpan);
            double w = batch > 0 ? transport(trueCost, absReg, opt) : wholeW;
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
            double wTilde = transport(noisy, absReg, opt);
            err[r] = Math.abs(wTilde - w) / w;
        }
        return err;
    }

    /** W = &lt;gamma, C&gt; for the squared Euclidean cost between the rows, solved at {@code reg} times the cost's range. */
    static double value(DenseMatrix s, DenseMatrix t, double reg, SinkhornOptions opt) {
        DenseMatrix c = CostMatrices.squaredEuclidean(s, t);
        return transport(c, reg * span(c), opt);
    }

    private static double span(DenseMatrix c) {
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (double v : c.data()) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return hi - lo > 0 ? hi - lo : 1.0;
    }

    /**
     * &lt;gamma, C&gt; for the entropic coupling of C at the absolute regularisation {@code absReg} (in C's units), in C's
     * units. The cost is shifted by its minimum and divided by its range before solving (the regularisation divided
     * likewise); with uniform marginals a constant shift does not change the coupling.
     */
    static double transport(DenseMatrix c, double absReg, SinkhornOptions opt) {
        double lo = Double.POSITIVE_INFINITY;
        for (double v : c.data()) {
            lo = Math.min(lo, v);
        }
        double scale = span(c);
        DenseMatrix n = c.copy();
        double[] a = n.data();
        for (int i = 0; i < a.length; i++) {
            a[i] = (a[i] - lo) / scale;
        }
        Coupling g = Sinkhorn.solve(CostMatrices.uniform(c.rows()), CostMatrices.uniform(c.cols()), n, absReg / scale, opt);
        double[] p = g.plan().data();
        double[] cc = c.data();
        double sum = 0;
        for (int i = 0; i < p.length; i++) {
            sum += p[i] * cc[i];
        }
        return sum;
    }
}
