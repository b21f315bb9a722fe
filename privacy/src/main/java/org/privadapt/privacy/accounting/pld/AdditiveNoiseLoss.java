package org.privadapt.privacy.accounting.pld;

import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * The privacy loss of a scalar additive-noise mechanism with sensitivity one, possibly Poisson-subsampled, as a
 * pair (P, Q) of mixtures of the noise law centred at 0 ({@code B}) and at 1 ({@code S}), together with the exact
 * P- and Q-probabilities of the events {@code L <= t} and {@code L > t}.
 *
 * <p>Write {@code L0(x) = ln(S(x)/B(x))}, non-decreasing in x: {@code (2x - 1) / (2 s^2)} for Gaussian noise of
 * standard deviation s, and {@code (|x| - |x - 1|) / b}, clamped to {@code [-1/b, 1/b]}, for Laplace noise of
 * scale b. Three pairs are used (q is the sampling probability):
 * <ul>
 *   <li>{@link Direction#PLAIN}: P = S, Q = B, {@code L = L0(x)}. By the symmetry of the noise (reflect
 *       {@code x -> 1 - x}) this has the same loss distribution as N(0, s^2) vs N(1, s^2), resp. Lap(0, b) vs
 *       Lap(1, b), and as the reverse pair, so it serves both neighbouring directions.</li>
 *   <li>{@link Direction#REMOVE}: P = (1 - q) B + q S, Q = B: {@code L = ln(1 - q + q e^{L0(x)})}, in
 *       {@code (ln(1 - q), +inf)} for Gaussian noise.</li>
 *   <li>{@link Direction#ADD}: P = B, Q = (1 - q) B + q S, reflected to P = S, Q = (1 - q) S + q B so the loss
 *       {@code L = -ln(1 - q + q e^{-L0(x)})} is non-decreasing in x; in {@code (-inf, -ln(1 - q))}.</li>
 * </ul>
 * In every case {@code L = g(L0(x))} with g increasing, so {@code {L > t} = {x > y(t)}} for a threshold
 * {@code y(t) = L0^{-1}(g^{-1}(t))} in {@code [-inf, +inf]}, and every probability is a mixture of the noise CDF
 * or survival function at {@code y(t)} (survival functions in upper tails, never {@code 1 - cdf}). The Laplace
 * loss has atoms (at {@code g(+-1/b)}); the convention {@code {L > t}} vs {@code {L <= t}} keeps them exact.
 */
final class AdditiveNoiseLoss {
    private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0.0, 1.0);

    enum Noise { GAUSSIAN, LAPLACE }

    enum Direction { PLAIN, REMOVE, ADD }

    private final Noise noise;
    private final double scale;
    private final Direction direction;
    private final double q;
    private final double logOneMinusQ;
    private final double logQ;
    /** Weights of B in P and in Q (the rest is on S). */
    private final double pWeightB;
    private final double qWeightB;

    /**
     * @param scale the noise multiplier: standard deviation (Gaussian) or scale b (Laplace) over the sensitivity,
     *              finite and {@code > 0}
     * @param q the sampling probability, in (0, 1) for {@code REMOVE}/{@code ADD}; ignored for {@code PLAIN}
     */
    AdditiveNoiseLoss(Noise noise, double scale, Direction direction, double q) {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("noise multiplier must be finite and > 0, got " + scale);
        }
        if (direction != Direction.PLAIN && !(q > 0 && q < 1)) {
            throw new IllegalArgumentException("sampling probability must be in (0, 1), got " + q);
        }
        this.noise = noise;
        this.scale = scale;
        this.direction = direction;
        this.q = direction == Direction.PLAIN ? 1.0 : q;
        this.logOneMinusQ = Math.log1p(-this.q);
        this.logQ = Math.log(this.q);
        switch (direction) {
            case PLAIN:
                pWeightB = 0.0;
                qWeightB = 1.0;
                break;
            case REMOVE:
                pWeightB = 1.0 - q;
                qWeightB = 1.0;
                break;
            default:
                pWeightB = 0.0;
                qWeightB = q;
                break;
        }
    }

    /** Infimum of the loss (possibly -infinity). */
    double minLoss() {
        return g(noise == Noise.GAUSSIAN ? Double.NEGATIVE_INFINITY : -1.0 / scale);
    }

    /** Supremum of the loss (possibly +infinity). */
    double maxLoss() {
        return g(noise == Noise.GAUSSIAN ? Double.POSITIVE_INFINITY : 1.0 / scale);
    }

    /**
     * Fills {@code out} with {@code P[L <= t], P[L > t], Q[L <= t], Q[L > t]}.
     */
    void probabilities(double t, double[] out) {
        double y = threshold(gInverse(t));
        double cdfB = cdf(y, 0.0);
        double sfB = sf(y, 0.0);
        double cdfS = cdf(y, 1.0);
        double sfS = sf(y, 1.0);
        out[0] = pWeightB * cdfB + (1.0 - pWeightB) * cdfS;
        out[1] = pWeightB * sfB + (1.0 - pWeightB) * sfS;
        out[2] = qWeightB * cdfB + (1.0 - qWeightB) * cdfS;
        out[3] = qWeightB * sfB + (1.0 - qWeightB) * sfS;
    }

    /** {@code g(u)}: the loss as a function of the base loss {@code u = L0(x)}. */
    double g(double u) {
        switch (direction) {
            case PLAIN:
                return u;
            case REMOVE:
                return Math.log1p(q * Math.expm1(u));
            default:
                return -Math.log1p(q * Math.expm1(-u));
        }
    }

    /** The u with {@code g(u') > t <=> u' > u}, in {@code [-inf, +inf]}. */
    double gInverse(double t) {
        switch (direction) {
            case PLAIN:
                return t;
            case REMOVE:
                return t <= logOneMinusQ ? Double.NEGATIVE_INFINITY : logMixtureRatio(t);
            default:
                return -t <= logOneMinusQ ? Double.POSITIVE_INFINITY : -logMixtureRatio(-t);
        }
    }

    /** {@code ln((e^v - (1 - q)) / q)} for {@code v > ln(1 - q)}, without overflow for large v. */
    private double logMixtureRatio(double v) {
        if (v > 1.0) {
            return v + Math.log1p(-(1.0 - q) * Math.exp(-v)) - logQ;
        }
        return Math.log1p(Math.expm1(v) / q);
    }

    /** The x with {@code L0(x') > u <=> x' > x}, in {@code [-inf, +inf]}. */
    private double threshold(double u) {
        if (noise == Noise.GAUSSIAN) {
            return 0.5 + scale * (scale * u);
        }
        if (u < -1.0 / scale) {
            return Double.NEGATIVE_INFINITY;
        }
        if (u >= 1.0 / scale) {
            return Double.POSITIVE_INFINITY;
        }
        return 0.5 * (scale * u + 1.0);
    }

    /** P[X &lt;= x] for the noise law centred at {@code centre}. */
    private double cdf(double x, double centre) {
        if (x == Double.NEGATIVE_INFINITY) {
            return 0.0;
        }
        if (x == Double.POSITIVE_INFINITY) {
            return 1.0;
        }
        if (noise == Noise.GAUSSIAN) {
            return STANDARD_NORMAL.cumulativeProbability((x - centre) / scale);
        }
        double z = (x - centre) / scale;
        return z < 0 ? 0.5 * Math.exp(z) : 1.0 - 0.5 * Math.exp(-z);
    }

    /** P[X > x] for the noise law centred at {@code centre}. */
    private double sf(double x, double centre) {
        if (x == Double.NEGATIVE_INFINITY) {
            return 1.0;
        }
        if (x == Double.POSITIVE_INFINITY) {
            return 0.0;
        }
        if (noise == Noise.GAUSSIAN) {
            return STANDARD_NORMAL.survivalProbability((x - centre) / scale);
        }
        double z = (x - centre) / scale;
        return z > 0 ? 0.5 * Math.exp(-z) : 1.0 - 0.5 * Math.exp(z);
    }

    /**
     * The pessimistic discretisation of this loss on the grid {@code h Z}.
     *
     * <p>Truncation: where the loss is unbounded, the grid stops at {@code t_lo <= ... <= t_hi} with
     * {@code P[L <= t_lo] <= tailBound} and {@code P[L > t_hi] <= tailBound}; where it is bounded the grid covers
     * the whole range. All mass at or below the lowest grid point {@code floor(t_lo / h) h} is put on that point
     * (losses only grow), and all mass above the highest grid point {@code ceil(t_hi / h) h} goes to
     * {@code +infinity}. Between grid points the mass is placed as {@code mode} says.
     */
    DiscretePld discretise(double h, Discretisation mode, double tailBound) {
        double tLo = minLoss();
        double tHi = maxLoss();
        double[] v = new double[4];
        if (tLo == Double.NEGATIVE_INFINITY) {
            tLo = searchTail(h, tailBound, true, v);
        }
        if (tHi == Double.POSITIVE_INFINITY) {
            tHi = searchTail(h, tailBound, false, v);
        }
        long kLo = (long) Math.floor(tLo / h);
        long kHi = Math.max(kLo, (long) Math.ceil(tHi / h));
        long size = kHi - kLo + 1;
        if (size > DiscretePld.MAX_SUPPORT) {
            throw new IllegalArgumentException("the privacy loss of " + this + " spans " + size
                    + " grid points (limit " + DiscretePld.MAX_SUPPORT + "); use a coarser discretisation interval than "
                    + h);
        }
        double[] probs = new double[(int) size];
        double oneMinusEmh = -Math.expm1(-h);
        probabilities(kLo * h, v);
        probs[0] = v[0];
        // Mass moved up by the lower truncation (not the atom at a finite minimum loss, which is only rounded).
        double lowerTruncated = minLoss() == Double.NEGATIVE_INFINITY ? v[0] : 0.0;
        double pLeqPrev = v[0];
        double pGtPrev = v[1];
        double qLeqPrev = v[2];
        double qGtPrev = v[3];
        for (long k = kLo; k < kHi; k++) {
            probabilities((k + 1) * h, v);
            double a = v[0] <= 0.5 ? v[0] - pLeqPrev : pGtPrev - v[1];
            double b = v[2] <= 0.5 ? v[2] - qLeqPrev : qGtPrev - v[3];
            a = Math.max(0.0, a);
            b = Math.max(0.0, b);
            int i = (int) (k - kLo);
            if (mode == Discretisation.ROUND_UP) {
                probs[i + 1] += a;
            } else {
                double tk = k * h;
                double eb = b == 0.0 ? 0.0 : (tk < 700 ? Math.exp(tk) * b : Math.exp(tk + Math.log(b)));
                double up = Math.min(a, Math.max(0.0, (a - eb) / oneMinusEmh));
                probs[i] += a - up;
                probs[i + 1] += up;
            }
            pLeqPrev = v[0];
            pGtPrev = v[1];
            qLeqPrev = v[2];
            qGtPrev = v[3];
        }
        double infinity = pGtPrev;
        return new DiscretePld(h, kLo, probs, infinity, lowerTruncated + infinity);
    }

    /**
     * A loss t with {@code P[L <= t] <= tailBound} (lower) or {@code P[L > t] <= tailBound} (upper), within about
     * h of the most inward such t: bracket by doubling steps from 0, then bisect.
     */
    private double searchTail(double h, double tailBound, boolean lower, double[] v) {
        double inside;
        double outside;
        double step = 1.0;
        if (tailMass(0.0, lower, v) <= tailBound) {
            // 0 is already in the tail: walk inwards until leaving it.
            outside = 0.0;
            while (true) {
                inside = lower ? step : -step;
                if (tailMass(inside, lower, v) > tailBound) {
                    break;
                }
                outside = inside;
                step = nextStep(step);
            }
        } else {
            inside = 0.0;
            while (true) {
                outside = lower ? -step : step;
                if (tailMass(outside, lower, v) <= tailBound) {
                    break;
                }
                inside = outside;
                step = nextStep(step);
            }
        }
        while (Math.abs(outside - inside) > h) {
            double mid = 0.5 * (inside + outside);
            if (tailMass(mid, lower, v) <= tailBound) {
                outside = mid;
            } else {
                inside = mid;
            }
        }
        return outside;
    }

    private double tailMass(double t, boolean lower, double[] v) {
        probabilities(t, v);
        return lower ? v[0] : v[1];
    }

    private double nextStep(double step) {
        if (step > 1e9) {
            throw new IllegalStateException("cannot bound the tails of the privacy loss of " + this);
        }
        return 2.0 * step;
    }

    @Override
    public String toString() {
        return (noise == Noise.GAUSSIAN ? "Gaussian(" : "Laplace(") + scale + ")"
                + (direction == Direction.PLAIN ? "" : " subsampled q=" + q + " " + direction.name().toLowerCase(java.util.Locale.ROOT));
    }
}
