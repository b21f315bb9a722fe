package org.privadapt.methods.coral;

import org.privadapt.math.CovarianceSpectrum;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.LinAlg;

/**
 * CORrelation ALignment (Sun, Feng, Saenko, "Return of Frustratingly Easy Domain Adaptation", AAAI 2016,
 * Algorithm 1): with {@code C_s = cov(X_s) + lambda I} and {@code C_t = cov(X_t) + lambda I}, the source is
 * whitened with its own covariance and re-coloured with the target's,
 * {@code X_s' = X_s C_s^{-1/2} C_t^{1/2}}. Both square roots come from one symmetric eigendecomposition each
 * (never a general matrix square root), so the map is exact for the regularised covariances; lambda = 1 is the
 * paper's choice for standardised features.
 */
public final class Coral {
    private Coral() {
    }

    /**
     * The d x d map {@code C_s^{-1/2} C_t^{1/2}} from the two covariances (regularisation added here).
     *
     * @param sourceCov cov(X_s), symmetric d x d
     * @param targetCov cov(X_t), symmetric d x d (need not be PSD beyond lambda: a noisy estimate is allowed as
     *                  long as cov + lambda I is positive semi-definite)
     */
    public static DenseMatrix alignmentMap(DenseMatrix sourceCov, DenseMatrix targetCov, double lambda) {
        if (sourceCov.rows() != targetCov.rows()) {
            throw new IllegalArgumentException("covariances of different dimension: " + sourceCov.rows() + " vs " + targetCov.rows());
        }
        DenseMatrix whiten = LinAlg.spdPower(sourceCov.plusIdentity(lambda), -0.5);
        DenseMatrix recolour = LinAlg.spdPower(targetCov.plusIdentity(lambda), 0.5);
        return LinAlg.multiply(whiten, recolour);
    }

    /**
     * As {@link #alignmentMap(DenseMatrix, DenseMatrix, double)} with the ridge relative to each covariance's mean
     * variance: {@code C + lambda (tr(C)/d) I}, which is Sun et al.'s {@code +I} when features are standardised and
     * keeps the same meaning for features on any other scale.
     */
    public static DenseMatrix alignmentMapRelative(DenseMatrix sourceCov, DenseMatrix targetCov, double lambda) {
        int d = sourceCov.rows();
        double ls = lambda * Math.max(sourceCov.trace() / d, 1e-300);
        double lt = lambda * Math.max(targetCov.trace() / d, 1e-300);
        DenseMatrix whiten = LinAlg.spdPower(sourceCov.plusIdentity(ls), -0.5);
        DenseMatrix recolour = LinAlg.spdPower(targetCov.plusIdentity(lt), 0.5);
        return LinAlg.multiply(whiten, recolour);
    }

    /**
     * The aligned source {@code X_s C_s^{-1/2} C_t^{1/2}} straight from the rows of both domains (non-private CORAL:
     * exact covariances), without forming a d x d matrix: each regularised power is applied through the covariance's
     * spectrum ({@link CovarianceSpectrum#ridgedPowerTimes}), which a domain with fewer rows than features computes
     * from its n x n Gram matrix; where that route cannot be exact to rounding for this lambda
     * ({@link CovarianceSpectrum#exactFor}) the d x d route is taken. Equal to
     * {@code apply(source, alignmentMap(cov(X_s), cov(X_t), lambda))} up to rounding (CoralTest); on Amazon reviews
     * (2000 x 5000 per domain) a KT->DV bench cell takes 20 s instead of 79 s.
     */
    public static DenseMatrix alignSource(FeatureMatrix source, FeatureMatrix target, double lambda) {
        if (source.cols() != target.cols()) {
            throw new IllegalArgumentException("domains of different dimension: " + source.cols() + " vs " + target.cols());
        }
        CovarianceSpectrum cs = CovarianceSpectrum.of(source);
        CovarianceSpectrum ct = CovarianceSpectrum.of(target);
        if (!cs.exactFor(lambda) || !ct.exactFor(lambda)) { // columns on wildly different scales, small lambda
            requireDenseRouteFits(source.cols(), lambda, Runtime.getRuntime().maxMemory());
            return apply(source, alignmentMap(LinAlg.covariance(source), LinAlg.covariance(target), lambda));
        }
        return ct.ridgedPowerTimes(cs.ridgedPowerTimes(source, lambda, -0.5), lambda, 0.5);
    }

    /** How many d x d matrices the exact route holds at once (the two covariances, an eigenbasis, a power, the map). */
    static final int DENSE_ROUTE_MATRICES = 4;

    /**
     * Refuses, with one line, the exact d x d route where its matrices cannot fit in {@code heapBytes}: at d = 25,804
     * (20 Newsgroups) they need 21 GB, at d = 152,543 (the spam inboxes) 745 GB; without this the JVM ran for
     * minutes before failing or paging. The Gram route, which needs no d x d matrix, is taken whenever its dropped
     * eigenvalues are negligible at this lambda, so a larger lambda or fewer features can make CORAL run.
     */
    static void requireDenseRouteFits(int d, double lambda, long heapBytes) {
        double need = DENSE_ROUTE_MATRICES * 8.0 * d * (double) d;
        if (need > heapBytes) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "CORAL needs its exact d x d route here "
                    + "(the n x n route's dropped eigenvalues are not negligible at lambda %s), and at d = %d its %d d x d "
                    + "matrices take %.1f GB, more than this JVM's %.1f GB heap: use fewer features, a larger --param lambda, "
                    + "or another method", lambda, d, DENSE_ROUTE_MATRICES, need / 1e9, heapBytes / 1e9));
        }
    }

    /** Applies a map to source rows: {@code X_s A}. */
    public static DenseMatrix apply(FeatureMatrix source, DenseMatrix map) {
        return source.multiply(map);
    }
}
