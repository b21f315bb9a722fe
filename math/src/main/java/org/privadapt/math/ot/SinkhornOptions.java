package org.privadapt.math.ot;

/**
 * Options of {@link Sinkhorn#solve}.
 *
 * @param maxIterations   the most full scaling sweeps (one row and one column update each); 0 returns the starting
 *                        plan
 * @param tolerance       stop when the L1 error of the marginals is at most {@code tolerance * sum(a)} (so an absolute
 *                        L1 error for probability vectors)
 * @param absorbThreshold the stabilised solver absorbs the scalings u, v into the log-potentials as soon as one of
 *                        them leaves {@code [1/absorbThreshold, absorbThreshold]} (POT's {@code tau}); must be &gt; 1
 * @param logDomain       iterate on the log-potentials with log-sum-exp instead (slower: 2 n m exponentials per
 *                        sweep instead of two matrix-vector products; never needed for stability here, kept as a
 *                        reference implementation)
 */
public record SinkhornOptions(int maxIterations, double tolerance, double absorbThreshold, boolean logDomain) {

    public SinkhornOptions {
        if (maxIterations < 0) {
            throw new IllegalArgumentException("maxIterations must be >= 0, got " + maxIterations);
        }
        if (!(tolerance >= 0) || Double.isInfinite(tolerance)) {
            throw new IllegalArgumentException("tolerance must be finite and >= 0, got " + tolerance);
        }
        if (!(absorbThreshold > 1) || Double.isInfinite(absorbThreshold)) {
            throw new IllegalArgumentException("absorbThreshold must be finite and > 1, got " + absorbThreshold);
        }
    }

    /** 1000 sweeps, marginal L1 tolerance 1e-9, absorption at 1e3 (POT's sinkhorn_stabilized tau), stabilised. */
    public static SinkhornOptions defaults() {
        return new SinkhornOptions(1000, 1e-9, 1e3, false);
    }

    public SinkhornOptions withMaxIterations(int maxIterations) {
        return new SinkhornOptions(maxIterations, tolerance, absorbThreshold, logDomain);
    }

    public SinkhornOptions withTolerance(double tolerance) {
        return new SinkhornOptions(maxIterations, tolerance, absorbThreshold, logDomain);
    }

    public SinkhornOptions withAbsorbThreshold(double absorbThreshold) {
        return new SinkhornOptions(maxIterations, tolerance, absorbThreshold, logDomain);
    }

    public SinkhornOptions withLogDomain(boolean logDomain) {
        return new SinkhornOptions(maxIterations, tolerance, absorbThreshold, logDomain);
    }
}
