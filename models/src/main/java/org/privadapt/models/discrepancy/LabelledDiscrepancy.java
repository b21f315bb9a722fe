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
        DenseMatrix a = LinAlg.gram(xPub);
        a.scaleInPlace(1.0 / xPub.rows());
        DenseMatrix aPriv = LinAlg.gram(xPriv);
        a.addScaledInPlace(-1.0 / xPriv.rows(), aPriv);
        double[] b = LinAlg.multiplyTransA(xPub, yPub);
        double[] bPriv = LinAlg.multiplyTransA(xPriv, yPriv);
        for (int k = 0; k < b.length; k++) {
            b[k] = b[k] / xPub.rows() - bPriv[k] / xPriv.rows();
        }
        double c = meanSquare(yPub) - meanSquare(yPriv);
        return TrustRegion.maxAbs(a, b, c, lambda);
    }

    static double meanSquare(double[] y) {
        double s = 0;
        for (double v : y) {
            s += v * v;
        }
        return s / y.length;
    }
}
