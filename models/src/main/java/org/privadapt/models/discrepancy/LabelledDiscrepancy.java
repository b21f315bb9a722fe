package org.privadapt.models.discrepancy;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.math.optim.TrustRegion;

/**
 * The empirical labelled discrepancy of paper 003 (Eq. 2) for linear predictors {@code ||w|| <= Lambda} and the squared
 * loss: {@code d = sup_w | L_pub(w) - L_priv(w) |}. The difference of the two mean losses is the quadratic
 * {@code f(w) = w^T (A_pub - A_priv) w - 2 (b_pub - b_priv)^T w + (c_pub - c_priv)} with {@code A_S = X_S^T X_S / |S|},
 * {@code b_S = X_S^T y_S / |S|}, {@code c_S = mean(y_S^2)}, so d is the larger of two trust-region subproblems, each
 * solved exactly ({@link TrustRegion}: eigendecomposition and the secular equation), not by a local DC iteration.
 * Exactness matters for privacy: the supremum moves by at most B / n when one private row is replaced, a local
 * optimum need not.
 */
public final class LabelledDiscrepancy {
    private LabelledDiscrepancy() {
    }

    public static double squaredLoss(DenseMatrix xPub, double[] yPub, DenseMatrix xPriv, double[] yPriv, double lambda) {
        if (xPub.cols() != xPriv.cols() || xPub.rows() != yPub.length || xPriv.rows() != yPriv.length) {
            throw new IllegalArgumentException("shapes do not match");
        }
        if (xPub.rows() + xPriv.rows() + 1 < xPub.cols()) {
            return lowRank(xPub, yPub, xPriv, yPriv, lambda);
        }
        return full(xPub, yPub, xPriv, yPriv, lambda);
    }

    /** Through the d x d matrix A_pub - A_priv. */
    static double full(DenseMatrix xPub, double[] yPub, DenseMatrix xPriv, double[] yPriv, double lambda) {
        return squaredLoss(xPub, yPub, LinAlg.gram(xPriv), LinAlg.multiplyTransA(xPriv, yPriv), meanSquare(yPriv), xPriv.rows(),
                lambda);
    }

    /**
     * The same supremum through the d x d matrix A_pub - A_priv, with the private side given by its sums over rows:
     * {@code gramPriv = X_priv^T X_priv}, {@code xtyPriv = X_priv^T y_priv}, the mean of {@code y_priv^2} and the number
     * of private rows n. {@link #squaredLoss(DenseMatrix, double[], DenseMatrix, double[], double)} with at least
     * {@code d - m - 1} private rows is this on the private rows' own sums (bit for bit); an engine that sums the
     * private rows elsewhere (the spark module) calls it with its sums.
     */
    public static double squaredLoss(DenseMatrix xPub, double[] yPub, DenseMatrix gramPriv, double[] xtyPriv, double meanSquarePriv,
                                     int nPriv, double lambda) {
        if (xPub.rows() != yPub.length || gramPriv.rows() != xPub.cols() || gramPriv.cols() != xPub.cols()
                || xtyPriv.length != xPub.cols()) {
            throw new IllegalArgumentException("shapes do not match");
        }
        DenseMatrix a = LinAlg.gram(xPub);
        a.scaleInPlace(1.0 / xPub.rows());
        a.addScaledInPlace(-1.0 / nPriv, gramPriv);
        double[] b = LinAlg.multiplyTransA(xPub, yPub);
        double[] bPriv = xtyPriv;
        for (int k = 0; k < b.length; k++) {
            b[k] = b[k] / xPub.rows() - bPriv[k] / nPriv;
        }
        double c = meanSquare(yPub) - meanSquarePriv;
        return TrustRegion.maxAbs(a, b, c, lambda);
    }

    /**
     * The same supremum when the rows are fewer than the features (text: d = 5000, a few hundred rows), without a d x d
     * matrix. With {@code Z = [X_pub; X_priv]} and the signature {@code S = diag(1/m ..., -1/n ...)},
     * {@code A = Z^T S Z} and {@code b = Z^T S y}. From {@code Z Z^T = U diag(s^2) U^T} (rank r), {@code Z = U s V^T}
     * with V orthonormal (d x r), so {@code A = V M V^T} with {@code M = s U^T S U s} and {@code b = V s U^T S y}. In an
     * orthonormal basis {V, V_perp}, f has curvature M on span(V), none on V_perp and no linear term there; over the
     * ball, V_perp can only take up radius at value 0, which one extra coordinate with eigenvalue 0 represents exactly.
     * So d equals the trust-region bound of the (r + 1)-dimensional problem {@code (diag(M, 0), (b_r, 0), c)}.
     */
    static double lowRank(DenseMatrix xPub, double[] yPub, DenseMatrix xPriv, double[] yPriv, double lambda) {
        int m = xPub.rows();
        int n = xPriv.rows();
        DenseMatrix z = xPub.vstack(xPriv);
        double[] sign = new double[m + n];
        double[] sy = new double[m + n];
        for (int i = 0; i < m + n; i++) {
            sign[i] = i < m ? 1.0 / m : -1.0 / n;
            sy[i] = sign[i] * (i < m ? yPub[i] : yPriv[i - m]);
        }
        org.privadapt.math.SymmetricEigen e = LinAlg.eigh(z.transpose().gram());
        double top = Math.max(e.maxValue(), 0);
        java.util.List<Integer> keep = new java.util.ArrayList<>();
        for (int k = 0; k < m + n; k++) {
            if (e.value(k) > 1e-12 * top) {
                keep.add(k);
            }
        }
        int r = keep.size();
        // W = U_r diag(s): the rows' coordinates in the basis V, scaled (Z V = U s)
        DenseMatrix vectors = e.vectors(); // a copy: taken once
        DenseMatrix w = DenseMatrix.zeros(m + n, r);
        for (int j = 0; j < r; j++) {
            int k = keep.get(j);
            double sv = Math.sqrt(e.value(k));
            for (int i = 0; i < m + n; i++) {
                w.set(i, j, vectors.get(i, k) * sv);
            }
        }
        // M = W^T S W, b_r = W^T S y, padded with one zero coordinate
        DenseMatrix mr = LinAlg.gram(w.scaleRows(sqrtAbs(sign))).minus(LinAlg.gram(w.scaleRows(sqrtNeg(sign))));
        DenseMatrix a = DenseMatrix.zeros(r + 1, r + 1);
        for (int i = 0; i < r; i++) {
            for (int j = 0; j < r; j++) {
                a.set(i, j, mr.get(i, j));
            }
        }
        double[] br = LinAlg.multiplyTransA(w, sy);
        double[] b = java.util.Arrays.copyOf(br, r + 1);
        double c = meanSquare(yPub) - meanSquare(yPriv);
        return TrustRegion.maxAbs(a, b, c, lambda);
    }

    private static double[] sqrtAbs(double[] s) {
        double[] out = new double[s.length];
        for (int i = 0; i < s.length; i++) {
            out[i] = s[i] > 0 ? Math.sqrt(s[i]) : 0;
        }
        return out;
    }

    private static double[] sqrtNeg(double[] s) {
        double[] out = new double[s.length];
        for (int i = 0; i < s.length; i++) {
            out[i] = s[i] < 0 ? Math.sqrt(-s[i]) : 0;
        }
        return out;
    }

    static double meanSquare(double[] y) {
        double s = 0;
        for (double v : y) {
            s += v * v;
        }
        return s / y.length;
    }
}
