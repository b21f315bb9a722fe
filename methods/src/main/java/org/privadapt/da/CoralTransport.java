package org.privadapt.da;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.methods.coral.Coral;

/**
 * CORAL as an estimator (as POT's {@code ot.da.CORALTransport}): {@link #fit} learns the d x d map
 * {@code (C_s + lambda I)^{-1/2} (C_t + lambda I)^{1/2}} from both domains' covariances, {@link #transform} applies it
 * to source rows. Non-private: it reads both domains' rows. For the private version see {@code Prima}.
 *
 * <pre>{@code
 * double[][] aligned = new CoralTransport(1.0).fit(xs, xt).transform(xs);
 * }</pre>
 */
public final class CoralTransport {
    private final double lambda;
    private DenseMatrix map;

    /** lambda = 1, Sun et al.'s choice for standardised features. */
    public CoralTransport() {
        this(1.0);
    }

    /** @param lambda the ridge added to both covariances, > 0 */
    public CoralTransport(double lambda) {
        if (!(lambda > 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("lambda must be finite and > 0, got " + lambda);
        }
        this.lambda = lambda;
    }

    /** Learns the map from source rows {@code xs} (n_s x d) and target rows {@code xt} (n_t x d). */
    public CoralTransport fit(double[][] xs, double[][] xt) {
        DenseMatrix s = Arrays2.matrix(xs, "source");
        DenseMatrix t = Arrays2.matrix(xt, "target");
        Arrays2.sameWidth(s, t, "CORAL");
        map = Coral.alignmentMap(LinAlg.covariance(s), LinAlg.covariance(t), lambda);
        return this;
    }

    /** The source rows mapped into the target's second-order statistics: {@code X_s A}. */
    public double[][] transform(double[][] xs) {
        Arrays2.fitted(map, "CoralTransport");
        DenseMatrix s = Arrays2.matrix(xs, "source");
        if (s.cols() != map.rows()) {
            throw new IllegalArgumentException("fitted on " + map.rows() + " features, got " + s.cols());
        }
        return Arrays2.rows(Coral.apply(s, map));
    }

    /** {@code fit(xs, xt).transform(xs)}. */
    public double[][] fitTransform(double[][] xs, double[][] xt) {
        return fit(xs, xt).transform(xs);
    }

    /** The fitted d x d map (a copy). */
    public double[][] map() {
        Arrays2.fitted(map, "CoralTransport");
        return Arrays2.rows(map);
    }

    public double lambda() {
        return lambda;
    }
}
