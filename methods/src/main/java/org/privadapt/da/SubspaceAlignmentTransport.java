package org.privadapt.da;

import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.sa.SubspaceAlignment;

/**
 * Subspace alignment (Fernando et al., ICCV 2013) as an estimator: {@link #fit} finds each domain's top-k principal
 * axes; {@link #transformSource} projects source rows onto the source axes aligned to the target's
 * ({@code X_s P_s P_s^T P_t}), {@link #transformTarget} projects target rows onto the target axes
 * ({@code X_t P_t}). Train on the first, predict on the second. Non-private.
 */
public final class SubspaceAlignmentTransport {
    private final int k;
    private DenseMatrix ps;
    private DenseMatrix pt;

    /** @param k the subspace dimension, >= 1 (at most the number of features) */
    public SubspaceAlignmentTransport(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got " + k);
        }
        this.k = k;
    }

    public SubspaceAlignmentTransport fit(double[][] xs, double[][] xt) {
        DenseMatrix s = Arrays2.matrix(xs, "source");
        DenseMatrix t = Arrays2.matrix(xt, "target");
        Arrays2.sameWidth(s, t, "subspace alignment");
        if (k > s.cols()) {
            throw new IllegalArgumentException("k = " + k + " exceeds the " + s.cols() + " features");
        }
        ps = SubspaceAlignment.basisOfRows(s, k);
        pt = SubspaceAlignment.basisOfRows(t, k);
        return this;
    }

    /** Source rows in the aligned k-dimensional coordinates. */
    public double[][] transformSource(double[][] xs) {
        Arrays2.fitted(ps, "SubspaceAlignmentTransport");
        return Arrays2.rows(SubspaceAlignment.transformSource(Arrays2.matrix(xs, "source"), ps, pt));
    }

    /** Target rows in the target's k-dimensional coordinates. */
    public double[][] transformTarget(double[][] xt) {
        Arrays2.fitted(pt, "SubspaceAlignmentTransport");
        return Arrays2.rows(SubspaceAlignment.transformTarget(Arrays2.matrix(xt, "target"), pt));
    }

    public int k() {
        return k;
    }
}
