package org.privadapt.privacy.accounting.pld;

import java.util.Objects;
import java.util.Optional;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.PrivacyAccountant;
import org.privadapt.privacy.events.ApproximateDpEvent;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.LaplaceEvent;
import org.privadapt.privacy.events.NoOpEvent;
import org.privadapt.privacy.events.NonPrivateEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.events.SelfComposedEvent;

/**
 * Privacy loss distribution (PLD) accountant: numerically tight (eps, delta) bounds for compositions of Gaussian
 * and Laplace mechanisms, optionally Poisson-subsampled, after Koskela, Jalko and Honkela (2020, 2021), Meiser and
 * Mohammadi (2018), Sommer, Meiser and Mohammadi (2019), Doroshenko et al. (2022) and Google's dp_accounting.
 *
 * <p><b>What it certifies.</b> For an event E and the neighbouring relation in force, {@link #delta} returns a
 * number {@code >=} the smallest delta such that E is (eps, delta)-DP, i.e. {@code >=} the hockey-stick divergence
 * {@code sup_{D ~ D'} H_{e^eps}(M(D) || M(D')) = sup E_P[(1 - e^{eps - L})_+]} with {@code L = ln(P/Q)} the
 * privacy loss; {@link #epsilon} returns an eps {@code >=} the smallest eps at which that divergence is at most
 * delta. The worst case over neighbours is reached by a <em>dominating pair</em> per mechanism:
 * <ul>
 *   <li>{@code Gaussian(s)}: N(0, s^2) vs N(1, s^2), loss {@code ~ N(1/(2s^2), 1/s^2)};</li>
 *   <li>{@code Laplace(b)}: Lap(0, b) vs Lap(1, b), loss in {@code [-1/b, 1/b]} with atoms at both ends;</li>
 *   <li>{@code ApproximateDP(eps, delta)}: the four-outcome pair of {@link ApproximateDpEvent}, loss +infinity with
 *       probability delta, +eps and -eps otherwise (both rounded up to the grid);</li>
 *   <li>{@code PoissonSampled(q, M)}, add/remove only: "remove" P = (1 - q) M_0 + q M_1 vs Q = M_0, and "add"
 *       P = M_0 vs Q = (1 - q) M_0 + q M_1 (M_0, M_1 the noise centred at 0 and 1). The two are not mirror images,
 *       so both are composed through the whole event and the larger delta is reported (the supremum over
 *       neighbours of a composition is at most the larger of the two directions' composed divergences).</li>
 * </ul>
 * Gaussian and Laplace events are analysed the same way under either relation: their noise multiplier is already
 * relative to the sensitivity under the relation in force. Poisson subsampling is refused under replace-one.
 *
 * <p><b>How.</b> Each mechanism's PLD is discretised on the grid {@code h Z} pessimistically ({@link Discretisation};
 * default: connect-the-dots), with tails of mass at most {@value #TAIL_BOUND} moved up (lower tail) or to
 * {@code +infinity} (upper tail); compositions convolve PLDs by FFT, self-compositions by repeated squaring, and
 * after every convolution the tails are truncated the same way ({@link DiscretePld}). Each step keeps a pair of
 * distributions that dominates the true one, so the results are upper bounds up to floating-point round-off (FFT
 * round-off is of order 1e-16 of the largest probability per grid point; documented in
 * {@code docs/privacy/pld-accountant.md}).
 *
 * <p>{@code NoOpEvent} (and a mechanism with infinite noise, or sampled with probability 0) costs nothing;
 * {@code NonPrivateEvent}, and a Gaussian or Laplace mechanism with noise multiplier 0, make delta(eps) = 1 and
 * epsilon infinite. The PLD of the last event analysed is remembered, so
 * asking for epsilon and delta of the same event composes once. Thread-safe.
 */
public final class PldAccountant implements PrivacyAccountant {
    /** Default grid width {@code h} of the privacy loss (as dp_accounting). */
    public static final double DEFAULT_DISCRETISATION_INTERVAL = 1e-4;

    /**
     * Mass each tail may lose (pessimistically) per discretised mechanism and per composition: over the
     * {@code ~2 log2(n)} compositions of an n-fold self-composition this raises delta by well under 1e-13.
     */
    static final double TAIL_BOUND = 1e-15;

    private final NeighbouringRelation relation;
    private final double interval;
    private final Discretisation discretisation;
    private volatile Remembered last;

    /** Add/remove neighbours, {@code h = 1e-4}, connect-the-dots. */
    public PldAccountant() {
        this(NeighbouringRelation.ADD_OR_REMOVE_ONE);
    }

    public PldAccountant(NeighbouringRelation relation) {
        this(relation, DEFAULT_DISCRETISATION_INTERVAL);
    }

    public PldAccountant(NeighbouringRelation relation, double discretisationInterval) {
        this(relation, discretisationInterval, Discretisation.CONNECT_THE_DOTS);
    }

    /**
     * @param discretisationInterval grid width h of the privacy loss, in (0, 1]: smaller is tighter and slower
     *                               (the work of a composition grows like {@code (1/h) log(1/h)})
     */
    public PldAccountant(NeighbouringRelation relation, double discretisationInterval, Discretisation discretisation) {
        this.relation = Objects.requireNonNull(relation, "relation");
        if (!(discretisationInterval > 0 && discretisationInterval <= 1)) {
            throw new IllegalArgumentException("discretisation interval must be in (0, 1], got " + discretisationInterval);
        }
        this.interval = discretisationInterval;
        this.discretisation = Objects.requireNonNull(discretisation, "discretisation");
    }

    @Override
    public String name() {
        return "pld";
    }

    @Override
    public NeighbouringRelation relation() {
        return relation;
    }

    public double discretisationInterval() {
        return interval;
    }

    public Discretisation discretisation() {
        return discretisation;
    }

    @Override
    public Optional<String> unsupported(DpEvent event) {
        Objects.requireNonNull(event, "event");
        if (event instanceof GaussianEvent || event instanceof LaplaceEvent || event instanceof NoOpEvent
                || event instanceof NonPrivateEvent || event instanceof ApproximateDpEvent) {
            return Optional.empty();
        }
        if (event instanceof PoissonSampledEvent sampled) {
            if (relation != NeighbouringRelation.ADD_OR_REMOVE_ONE) {
                return Optional.of("the PLD accountant analyses Poisson subsampling under add/remove neighbours only, not "
                        + relation.description() + ": " + event.describe());
            }
            DpEvent inner = sampled.event();
            if (inner instanceof GaussianEvent || inner instanceof LaplaceEvent) {
                return Optional.empty();
            }
            return Optional.of("the PLD accountant supports Poisson subsampling of a Gaussian or Laplace mechanism only, got "
                    + event.describe());
        }
        if (event instanceof SelfComposedEvent self) {
            return unsupported(self.event());
        }
        if (event instanceof ComposedEvent composed) {
            for (DpEvent e : composed.events()) {
                Optional<String> reason = unsupported(e);
                if (reason.isPresent()) {
                    return reason;
                }
            }
            return Optional.empty();
        }
        return Optional.of("the PLD accountant does not support " + event.describe());
    }

    /**
     * The smallest eps {@code >= 0} with {@code max(delta_remove(eps), delta_add(eps)) <= delta} for the
     * discretised PLDs (each found exactly on their piecewise form, rounded up); infinity if none.
     */
    @Override
    public double epsilon(DpEvent event, double delta) {
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
        }
        return pld(event).epsilon(delta);
    }

    /** {@code max} over the two directions of {@code infinityMass + sum_{l > eps} p(l) (1 - e^{eps - l})}. */
    @Override
    public double delta(DpEvent event, double epsilon) {
        if (Double.isNaN(epsilon) || epsilon < 0) {
            throw new IllegalArgumentException("epsilon must be >= 0, got " + epsilon);
        }
        return pld(event).delta(epsilon);
    }

    /** The discretised PLDs of {@code event} in both directions (throws if the event is unsupported). */
    PldPair pld(DpEvent event) {
        Objects.requireNonNull(event, "event");
        Remembered remembered = last;
        if (remembered != null && remembered.event().equals(event)) {
            return remembered.pair();
        }
        Optional<String> reason = unsupported(event);
        if (reason.isPresent()) {
            throw new UnsupportedEventException(reason.get());
        }
        PldPair pair = build(event);
        last = new Remembered(event, pair);
        return pair;
    }

    private PldPair build(DpEvent event) {
        if (event instanceof NoOpEvent) {
            return PldPair.symmetric(DiscretePld.identity(interval));
        }
        if (event instanceof NonPrivateEvent) {
            return PldPair.symmetric(DiscretePld.nonPrivate(interval));
        }
        if (event instanceof GaussianEvent gaussian) {
            return plain(AdditiveNoiseLoss.Noise.GAUSSIAN, gaussian.noiseMultiplier());
        }
        if (event instanceof ApproximateDpEvent a) {
            return PldPair.symmetric(DiscretePld.approximateDp(interval, a.epsilon(), a.delta()));
        }
        if (event instanceof LaplaceEvent laplace) {
            return plain(AdditiveNoiseLoss.Noise.LAPLACE, laplace.noiseMultiplier());
        }
        if (event instanceof PoissonSampledEvent sampled) {
            double q = sampled.samplingProbability();
            AdditiveNoiseLoss.Noise noise = sampled.event() instanceof GaussianEvent
                    ? AdditiveNoiseLoss.Noise.GAUSSIAN : AdditiveNoiseLoss.Noise.LAPLACE;
            double scale = sampled.event() instanceof GaussianEvent g
                    ? g.noiseMultiplier() : ((LaplaceEvent) sampled.event()).noiseMultiplier();
            if (q == 0 || scale == Double.POSITIVE_INFINITY) {
                return PldPair.symmetric(DiscretePld.identity(interval));
            }
            if (scale == 0) {
                return PldPair.symmetric(DiscretePld.nonPrivate(interval));
            }
            if (q == 1) {
                return plain(noise, scale);
            }
            DiscretePld remove = new AdditiveNoiseLoss(noise, scale, AdditiveNoiseLoss.Direction.REMOVE, q)
                    .discretise(interval, discretisation, TAIL_BOUND);
            DiscretePld add = new AdditiveNoiseLoss(noise, scale, AdditiveNoiseLoss.Direction.ADD, q)
                    .discretise(interval, discretisation, TAIL_BOUND);
            return new PldPair(remove, add);
        }
        if (event instanceof SelfComposedEvent self) {
            if (self.count() == 0) {
                return PldPair.symmetric(DiscretePld.identity(interval));
            }
            return build(self.event()).power(self.count());
        }
        if (event instanceof ComposedEvent composed) {
            PldPair result = PldPair.symmetric(DiscretePld.identity(interval));
            for (DpEvent e : composed.events()) {
                result = result.compose(build(e));
            }
            return result;
        }
        throw new UnsupportedEventException("the PLD accountant does not support " + event.describe());
    }

    private PldPair plain(AdditiveNoiseLoss.Noise noise, double scale) {
        if (scale == 0) {
            return PldPair.symmetric(DiscretePld.nonPrivate(interval));
        }
        if (scale == Double.POSITIVE_INFINITY) {
            // infinite noise releases nothing
            return PldPair.symmetric(DiscretePld.identity(interval));
        }
        return PldPair.symmetric(new AdditiveNoiseLoss(noise, scale, AdditiveNoiseLoss.Direction.PLAIN, 1.0)
                .discretise(interval, discretisation, TAIL_BOUND));
    }

    /**
     * The PLDs of the "remove" and "add" directions, composed separately; identical objects when the event has
     * no subsampling (then each composition is done once).
     */
    record PldPair(DiscretePld remove, DiscretePld add) {
        static PldPair symmetric(DiscretePld pld) {
            return new PldPair(pld, pld);
        }

        boolean isSymmetric() {
            return remove == add;
        }

        PldPair compose(PldPair other) {
            DiscretePld r = remove.compose(other.remove, TAIL_BOUND);
            if (isSymmetric() && other.isSymmetric()) {
                return symmetric(r);
            }
            return new PldPair(r, add.compose(other.add, TAIL_BOUND));
        }

        PldPair power(long count) {
            DiscretePld r = remove.selfCompose(count, TAIL_BOUND);
            return isSymmetric() ? symmetric(r) : new PldPair(r, add.selfCompose(count, TAIL_BOUND));
        }

        double delta(double eps) {
            double d = remove.delta(eps);
            return isSymmetric() ? d : Math.max(d, add.delta(eps));
        }

        /** The larger of the two epsilons: max(delta_r, delta_a)(eps) &lt;= delta iff both are. */
        double epsilon(double delta) {
            double e = remove.epsilon(delta);
            return isSymmetric() ? e : Math.max(e, add.epsilon(delta));
        }
    }

    private record Remembered(DpEvent event, PldPair pair) {
    }
}
