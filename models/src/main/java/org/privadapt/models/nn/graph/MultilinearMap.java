package org.privadapt.models.nn.graph;

import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

/**
 * CDAN's multilinear conditioning (Long et al. 2018): the domain head sees the joint of the features f and the
 * classifier's prediction g. The exact map is the flattened outer product {@code h_i = vec(f_i g_i^T)} (df * dg
 * columns, column {@code a * dg + b} holding {@code f_ia g_ib}); for large products the randomised map
 * {@code h_i = (f_i R_f) .* (g_i R_g) / sqrt(d)} with fixed Gaussian matrices (data-independent, so it costs no
 * privacy) keeps {@code E <h_i, h_j> = <f_i, f_j> <g_i, g_j>}. Both give the errors at f and g from the error at h;
 * whether g's error is used (CDAN's code detaches the prediction) is the caller's choice.
 */
public final class MultilinearMap {
    private final DenseMatrix rf; // null for the exact map
    private final DenseMatrix rg;
    private final int df;
    private final int dg;

    private MultilinearMap(int df, int dg, DenseMatrix rf, DenseMatrix rg) {
        this.df = df;
        this.dg = dg;
        this.rf = rf;
        this.rg = rg;
    }

    /** The exact map: output width df * dg. */
    public static MultilinearMap exact(int df, int dg) {
        if (df < 1 || dg < 1) {
            throw new IllegalArgumentException("widths must be positive: " + df + ", " + dg);
        }
        return new MultilinearMap(df, dg, null, null);
    }

    /** The randomised map of output width d, with standard normal R_f (df x d) and R_g (dg x d) from a seed. */
    public static MultilinearMap randomized(int df, int dg, int d, long seed) {
        if (df < 1 || dg < 1 || d < 1) {
            throw new IllegalArgumentException("widths must be positive: " + df + ", " + dg + ", " + d);
        }
        SplittableRandom rng = new SplittableRandom(seed);
        return new MultilinearMap(df, dg, gaussian(df, d, rng), gaussian(dg, d, rng));
    }

    private static DenseMatrix gaussian(int r, int c, SplittableRandom rng) {
        DenseMatrix m = DenseMatrix.zeros(r, c);
        double[] a = m.data();
        for (int k = 0; k < a.length; k++) {
            a[k] = Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());
        }
        return m;
    }

    public boolean isRandomized() {
        return rf != null;
    }

    /** Output width: df * dg, or d for the randomised map. */
    public int outputWidth() {
        return rf == null ? df * dg : rf.cols();
    }

    public DenseMatrix forward(DenseMatrix f, DenseMatrix g) {
        check(f, g);
        int n = f.rows();
        if (rf != null) {
            DenseMatrix a = LinAlg.multiply(f, rf);
            DenseMatrix b = LinAlg.multiply(g, rg);
            double s = 1.0 / Math.sqrt(rf.cols());
            double[] ad = a.data();
            double[] bd = b.data();
            for (int k = 0; k < ad.length; k++) {
                ad[k] *= bd[k] * s;
            }
            return a;
        }
        DenseMatrix h = DenseMatrix.zeros(n, df * dg);
        double[] hd = h.data();
        double[] fd = f.data();
        double[] gd = g.data();
        for (int a = 0; a < df; a++) {
            for (int b = 0; b < dg; b++) {
                int col = (a * dg + b) * n;
                for (int i = 0; i < n; i++) {
                    hd[col + i] = fd[i + a * n] * gd[i + b * n];
                }
            }
        }
        return h;
    }

    /** The errors {dL/df, dL/dg} from {@code dh} = dL/dh (n x outputWidth). */
    public DenseMatrix[] backward(DenseMatrix f, DenseMatrix g, DenseMatrix dh) {
        check(f, g);
        int n = f.rows();
        if (dh.rows() != n || dh.cols() != outputWidth()) {
            throw new IllegalArgumentException("error is " + dh.rows() + " x " + dh.cols() + ", expected " + n + " x " + outputWidth());
        }
        if (rf != null) {
            double s = 1.0 / Math.sqrt(rf.cols());
            DenseMatrix a = LinAlg.multiply(f, rf);
            DenseMatrix b = LinAlg.multiply(g, rg);
            double[] ad = a.data();
            double[] bd = b.data();
            double[] e = dh.data();
            for (int k = 0; k < ad.length; k++) { // a := dh .* (f R_f) s, b := dh .* (g R_g) s
                double fa = ad[k];
                ad[k] = e[k] * fa * s;
                bd[k] = e[k] * bd[k] * s;
            }
            return new DenseMatrix[] {LinAlg.multiplyTransB(b, rf), LinAlg.multiplyTransB(a, rg)};
        }
        DenseMatrix dfm = DenseMatrix.zeros(n, df);
        DenseMatrix dgm = DenseMatrix.zeros(n, dg);
        double[] e = dh.data();
        double[] fd = f.data();
        double[] gd = g.data();
        double[] o1 = dfm.data();
        double[] o2 = dgm.data();
        for (int a = 0; a < df; a++) {
            for (int b = 0; b < dg; b++) {
                int col = (a * dg + b) * n;
                for (int i = 0; i < n; i++) {
                    double x = e[col + i];
                    o1[i + a * n] += x * gd[i + b * n];
                    o2[i + b * n] += x * fd[i + a * n];
                }
            }
        }
        return new DenseMatrix[] {dfm, dgm};
    }

    private void check(DenseMatrix f, DenseMatrix g) {
        if (f.cols() != df || g.cols() != dg || f.rows() != g.rows()) {
            throw new IllegalArgumentException("inputs are " + f.rows() + " x " + f.cols() + " and " + g.rows() + " x " + g.cols()
                    + ", expected n x " + df + " and n x " + dg);
        }
    }
}
