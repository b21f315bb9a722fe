package org.privadapt.privacy.accounting.pld;

import java.util.Arrays;

/**
 * A privacy loss distribution (PLD) on the grid {@code h Z}: the law of the privacy loss {@code L = ln(P(o)/Q(o))},
 * {@code o ~ P}, of a pair of distributions (P, Q), discretised so that it <em>dominates</em> the pair it stands
 * for. Immutable.
 *
 * <p>Representation: {@code probs[i]} is the P-probability of the loss {@code (lowerIndex + i) h}, and
 * {@code infinityMass} that of {@code L = +infinity} (outcomes Q cannot produce, or mass moved there
 * pessimistically). The masses sum to at most one; the rest of Q's mass is implicitly on outcomes P never
 * produces (loss {@code -infinity}), which contribute nothing to delta.
 *
 * <p>Hockey-stick divergence: for {@code eps >= 0} the smallest delta for which (P, Q) is (eps, delta)-close is
 * <pre>  delta(eps) = E_P[(1 - e^{eps - L})_+] = infinityMass + sum_{l_i > eps} p_i (1 - e^{eps - l_i}).</pre>
 * Each atom contributes at most its mass, so moving an atom of mass m changes any delta - also after any number
 * of compositions - by at most m.
 *
 * <p>Domination is preserved by every operation here, because each one only (a) composes, or (b) moves an atom
 * of P-mass to a larger loss, or to {@code +infinity}: an atom {@code (p, q = p e^{-l})} moved to
 * {@code l' >= l} becomes {@code (p, p e^{-l'})} plus Q-mass {@code q - p e^{-l'}} on an outcome P never
 * produces, and {@code (p - x p e^{-l'})_+ >= (p - x q)_+} for every {@code x = e^eps >= 0}, so the hockey-stick
 * curve can only rise. Composition of independent mechanisms adds independent losses, so the composed PLD is the
 * convolution of the PLDs; composing dominating pairs gives a dominating pair (Blackwell; see e.g. Zhu, Dong and
 * Wang 2022, and Doroshenko et al. 2022, Section 2).
 *
 * <p>Tail truncation after a composition: the largest prefix of the grid with total mass at most
 * {@code tailBound} is moved up onto the lowest kept loss, and the largest such suffix to {@code +infinity}. Both
 * moves are of kind (b); their total mass is accumulated in {@link #truncatedMass()}, a bound on how much the
 * truncations (not the discretisation) can have raised any delta.
 */
final class DiscretePld {
    /**
     * Largest number of grid points a PLD may span (2^23: 839 units of loss at h = 1e-4). It keeps FFT lengths at
     * most 2^24, so a composition needs at most about 4 x 2^24 doubles (512 MiB) of scratch space.
     */
    static final int MAX_SUPPORT = 1 << 23;

    private final double h;
    private final long lowerIndex;
    private final double[] probs;
    private final double infinityMass;
    private final double truncatedMass;

    DiscretePld(double h, long lowerIndex, double[] probs, double infinityMass, double truncatedMass) {
        if (probs.length == 0) {
            throw new IllegalArgumentException("a PLD needs at least one grid point");
        }
        if (probs.length > MAX_SUPPORT) {
            throw new IllegalArgumentException("PLD would span " + probs.length + " grid points (limit "
                    + MAX_SUPPORT + "); use a coarser discretisation interval than " + h);
        }
        this.h = h;
        this.lowerIndex = lowerIndex;
        this.probs = probs;
        this.infinityMass = Math.min(1.0, Math.max(0.0, infinityMass));
        this.truncatedMass = truncatedMass;
    }

    /** The PLD of identical distributions: loss 0 with probability one. */
    static DiscretePld identity(double h) {
        return new DiscretePld(h, 0, new double[] {1.0}, 0.0, 0.0);
    }

    /**
     * The PLD of the dominating pair of an (eps, delta)-DP mechanism: loss +infinity with probability delta, +eps with
     * {@code (1 - delta) e^eps / (1 + e^eps)} and -eps with {@code (1 - delta) / (1 + e^eps)}, the two finite losses
     * rounded up to the grid (pessimistic).
     */
    static DiscretePld approximateDp(double h, double eps, double delta) {
        long hi = (long) Math.ceil(eps / h);
        long lo = (long) Math.ceil(-eps / h);
        if (hi - lo + 1 > MAX_SUPPORT) {
            throw new IllegalArgumentException("an (eps, delta) pair with eps " + eps + " spans more than " + MAX_SUPPORT
                    + " grid points of width " + h);
        }
        double up = (1 - delta) / (1 + Math.exp(-eps));
        double down = (1 - delta) / (1 + Math.exp(eps));
        double[] probs = new double[(int) (hi - lo + 1)];
        probs[0] += down;
        probs[probs.length - 1] += up;
        return new DiscretePld(h, lo, probs, delta, 0.0);
    }

    /** The PLD of a pair with no guarantee: loss +infinity with probability one (delta(eps) = 1). */
    static DiscretePld nonPrivate(double h) {
        return new DiscretePld(h, 0, new double[] {0.0}, 1.0, 0.0);
    }

    double discretisation() {
        return h;
    }

    long lowerIndex() {
        return lowerIndex;
    }

    int size() {
        return probs.length;
    }

    /** The P-probability of the loss {@code (lowerIndex + i) h}. */
    double prob(int i) {
        return probs[i];
    }

    double loss(int i) {
        return (lowerIndex + i) * h;
    }

    double infinityMass() {
        return infinityMass;
    }

    /** Total P-mass moved by tail truncations in this PLD and the PLDs it was composed from. */
    double truncatedMass() {
        return truncatedMass;
    }

    boolean isNonPrivate() {
        return infinityMass >= 1.0;
    }

    /** Sum of all finite-loss masses plus the mass at infinity (one, up to round-off). */
    double totalMass() {
        double s = infinityMass;
        for (double p : probs) {
            s += p;
        }
        return s;
    }

    /**
     * The PLD of the composition: losses add, so the finite parts are convolved and the masses at infinity
     * combine as {@code 1 - (1 - a)(1 - b)}; then tails of mass at most {@code tailBound} each are truncated
     * pessimistically (see the class comment).
     */
    DiscretePld compose(DiscretePld other, double tailBound) {
        if (other.h != h) {
            throw new IllegalArgumentException("cannot compose PLDs on grids " + h + " and " + other.h);
        }
        if (isNonPrivate() || other.isNonPrivate()) {
            return nonPrivate(h);
        }
        if (isIdentity()) {
            return other;
        }
        if (other.isIdentity()) {
            return this;
        }
        long outLength = (long) probs.length + other.probs.length - 1;
        if (outLength > MAX_SUPPORT) {
            throw new IllegalArgumentException("composed PLD would span " + outLength + " grid points (limit "
                    + MAX_SUPPORT + "); use a coarser discretisation interval than " + h);
        }
        double[] conv = Fft.convolve(probs, other.probs);
        double inf = infinityMass + other.infinityMass - infinityMass * other.infinityMass;
        return truncated(h, lowerIndex + other.lowerIndex, conv, inf,
                truncatedMass + other.truncatedMass, tailBound);
    }

    /** The {@code count}-fold composition with itself, by repeated squaring (about 2 log2(count) compositions). */
    DiscretePld selfCompose(long count, double tailBound) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
        DiscretePld result = identity(h);
        DiscretePld power = this;
        long n = count;
        while (n > 0) {
            if ((n & 1) != 0) {
                result = result.compose(power, tailBound);
            }
            n >>>= 1;
            if (n > 0) {
                power = power.compose(power, tailBound);
            }
        }
        return result;
    }

    private boolean isIdentity() {
        return probs.length == 1 && lowerIndex == 0 && infinityMass == 0.0 && probs[0] == 1.0;
    }

    /**
     * Moves the largest prefix of {@code probs} with mass {@code <= tailBound} onto the first kept point and the
     * largest such suffix to infinity; at least one point is kept.
     */
    static DiscretePld truncated(double h, long lowerIndex, double[] probs, double infinityMass,
            double truncatedMass, double tailBound) {
        int n = probs.length;
        int lo = 0;
        double lowMass = 0.0;
        while (lo < n - 1 && lowMass + probs[lo] <= tailBound) {
            lowMass += probs[lo];
            lo++;
        }
        int hi = n;
        double highMass = 0.0;
        while (hi - 1 > lo && highMass + probs[hi - 1] <= tailBound) {
            highMass += probs[hi - 1];
            hi--;
        }
        double[] kept = (lo == 0 && hi == n) ? probs : Arrays.copyOfRange(probs, lo, hi);
        kept[0] += lowMass;
        return new DiscretePld(h, lowerIndex + lo, kept, infinityMass + highMass,
                truncatedMass + lowMass + highMass);
    }

    /**
     * {@code delta(eps) = infinityMass + sum_{l_i > eps} p_i (1 - e^{eps - l_i})} for {@code eps} in
     * {@code [0, +infinity]}, summed with compensation from the largest loss down.
     */
    double delta(double eps) {
        if (isNonPrivate()) {
            return 1.0;
        }
        if (eps == Double.POSITIVE_INFINITY) {
            return infinityMass;
        }
        double sum = 0.0;
        double comp = 0.0;
        for (int i = probs.length - 1; i >= 0; i--) {
            double l = loss(i);
            if (l <= eps) {
                break;
            }
            double term = probs[i] * -Math.expm1(eps - l);
            double t = sum + term;
            comp += Math.abs(sum) >= Math.abs(term) ? (sum - t) + term : (term - t) + sum;
            sum = t;
        }
        return Math.min(1.0, infinityMass + (sum + comp));
    }

    /**
     * The smallest {@code eps >= 0} with {@code delta(eps) <= targetDelta}, or infinity if the mass at infinity
     * exceeds {@code targetDelta}.
     *
     * <p>Between consecutive grid losses {@code l_{i-1} <= eps < l_i}, {@code delta(eps) = U_i - e^eps W_i} with
     * {@code U_i = infinityMass + sum_{j >= i} p_j} and {@code W_i = sum_{j >= i} p_j e^{-l_j}}; delta is
     * continuous and non-increasing, so walking the intervals from the top, the first interval where
     * {@code ln((U_i - targetDelta) / W_i) >= l_{i-1}} holds the answer. The closed-form root is then checked
     * against {@link #delta} and nudged up by a few ulps if round-off put it a hair too low, so the returned
     * epsilon never under-states.
     */
    double epsilon(double targetDelta) {
        if (infinityMass > targetDelta) {
            return Double.POSITIVE_INFINITY;
        }
        double upper = infinityMass;
        double lower = 0.0;
        double root = Double.NaN;
        for (int i = probs.length - 1; i >= 0 && Double.isNaN(root); i--) {
            double li = loss(i);
            upper += probs[i];
            lower += probs[i] * Math.exp(-li);
            // Now upper, lower are U_i, W_i: valid for eps in [l_{i-1}, l_i).
            double below = i > 0 ? loss(i - 1) : Double.NEGATIVE_INFINITY;
            if (upper <= targetDelta) {
                continue;
            }
            if (lower == 0.0) {
                // e^{-l} underflowed: delta(eps) = U_i > target on the whole interval.
                root = li;
                break;
            }
            double candidate = Math.log((upper - targetDelta) / lower);
            if (candidate >= below) {
                root = Math.min(candidate, li);
            }
        }
        if (Double.isNaN(root)) {
            // delta(eps) <= target everywhere in the support; it is also at eps = 0.
            root = 0.0;
        }
        double eps = Math.max(0.0, root);
        for (int k = 0; k < 8; k++) {
            if (delta(eps) <= targetDelta) {
                return eps;
            }
            eps += Math.ulp(Math.max(eps, 1.0)) * (1 << (2 * k));
        }
        // Round-off beyond a few ulps (losses so large that e^{-l} underflows): bisect on delta itself, keeping
        // the upper end, where delta <= target holds (delta(maxLoss) = infinityMass <= target).
        double lo = eps;
        double hi = Math.max(eps, loss(probs.length - 1));
        for (int k = 0; k < 200 && hi - lo > Math.ulp(hi); k++) {
            double mid = 0.5 * (lo + hi);
            if (delta(mid) <= targetDelta) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }
}
