package org.privadapt.privacy.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.PrivacyAccountant;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.LaplaceEvent;
import org.privadapt.privacy.events.NoOpEvent;
import org.privadapt.privacy.events.NonPrivateEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.events.SelfComposedEvent;

/** Behaviour of the accountant: event handling, validation, monotonicity and the two add/remove directions. */
class PldAccountantTest {
    private final PldAccountant accountant = new PldAccountant();

    private static DpEvent dpSgd(double sigma, double q, long steps) {
        return new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(sigma)), steps);
    }

    @Test
    void describesItself() {
        assertThat(accountant.name()).isEqualTo("pld");
        assertThat(accountant.relation()).isEqualTo(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        assertThat(accountant.discretisationInterval()).isEqualTo(1e-4);
        assertThat(accountant.discretisation()).isEqualTo(Discretisation.CONNECT_THE_DOTS);
        assertThat(new PldAccountant(NeighbouringRelation.REPLACE_ONE, 1e-3).relation())
                .isEqualTo(NeighbouringRelation.REPLACE_ONE);
    }

    @Test
    void epsilonGrowsWithSteps() {
        double e10 = accountant.epsilon(dpSgd(1.5, 0.04, 10), 1e-5);
        double e100 = accountant.epsilon(dpSgd(1.5, 0.04, 100), 1e-5);
        double e1000 = accountant.epsilon(dpSgd(1.5, 0.04, 1000), 1e-5);
        assertThat(e10).isPositive().isLessThan(e100);
        assertThat(e100).isLessThan(e1000);
    }

    @Test
    void epsilonGrowsWithSamplingProbability() {
        double low = accountant.epsilon(dpSgd(1.5, 0.01, 20), 1e-5);
        double mid = accountant.epsilon(dpSgd(1.5, 0.04, 20), 1e-5);
        double high = accountant.epsilon(dpSgd(1.5, 0.1, 20), 1e-5);
        double full = accountant.epsilon(dpSgd(1.5, 1.0, 20), 1e-5);
        assertThat(low).isPositive().isLessThan(mid);
        assertThat(mid).isLessThan(high);
        assertThat(high).isLessThan(full);
        // q = 1 is the plain Gaussian mechanism
        assertThat(full).isEqualTo(accountant.epsilon(new SelfComposedEvent(new GaussianEvent(1.5), 20), 1e-5));
    }

    @Test
    void epsilonFallsWithNoise() {
        double e1 = accountant.epsilon(dpSgd(1.0, 0.04, 100), 1e-5);
        double e2 = accountant.epsilon(dpSgd(2.0, 0.04, 100), 1e-5);
        double e4 = accountant.epsilon(dpSgd(4.0, 0.04, 100), 1e-5);
        assertThat(e1).isGreaterThan(e2);
        assertThat(e2).isGreaterThan(e4);
        assertThat(e4).isPositive();
        assertThat(accountant.epsilon(new LaplaceEvent(1.0), 1e-5))
                .isGreaterThan(accountant.epsilon(new LaplaceEvent(2.0), 1e-5));
    }

    @Test
    void epsilonAndDeltaRoundTrip() {
        DpEvent event = dpSgd(1.2, 0.05, 300);
        double eps = accountant.epsilon(event, 1e-5);
        assertThat(accountant.delta(event, eps)).isLessThanOrEqualTo(1e-5);
        assertThat(accountant.delta(event, eps - 1e-6)).isGreaterThan(1e-5);

        double delta = accountant.delta(event, 2.0);
        assertThat(delta).isBetween(1e-9, 0.5);
        assertThat(accountant.epsilon(event, delta)).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void composedEqualsSelfComposedAndOrderDoesNotMatter() {
        DpEvent a = new PoissonSampledEvent(0.1, new GaussianEvent(1.0));
        DpEvent b = new GaussianEvent(3.0);
        double ab = accountant.delta(ComposedEvent.of(a, a, b), 1.0);
        double ba = accountant.delta(ComposedEvent.of(b, new SelfComposedEvent(a, 2)), 1.0);
        assertThat(ab).isCloseTo(ba, within(1e-12));
        assertThat(ab).isGreaterThan(accountant.delta(new SelfComposedEvent(a, 2), 1.0))
                .isGreaterThan(accountant.delta(b, 1.0));
    }

    /**
     * Subsampling makes the two directions differ; both are composed through the whole event (each with the
     * Gaussian's symmetric PLD) and the larger delta is reported.
     */
    @Test
    void reportsTheWorseOfTheAddAndRemoveDirections() {
        DpEvent event = ComposedEvent.of(dpSgd(1.0, 0.2, 20), new GaussianEvent(4.0));
        PldAccountant.PldPair pair = accountant.pld(event);
        assertThat(pair.isSymmetric()).isFalse();
        for (double eps : new double[] {0.0, 0.3, 1.0, 2.0}) {
            double remove = pair.remove().delta(eps);
            double add = pair.add().delta(eps);
            assertThat(accountant.delta(event, eps)).isEqualTo(Math.max(remove, add));
            if (eps > 0) {
                assertThat(remove).as("eps=%s", eps).isNotEqualTo(add);
            }
        }
        assertThat(accountant.epsilon(event, 1e-6))
                .isEqualTo(Math.max(pair.remove().epsilon(1e-6), pair.add().epsilon(1e-6)));
        assertThat(accountant.pld(new SelfComposedEvent(new GaussianEvent(1.0), 3)).isSymmetric()).isTrue();
    }

    @Test
    void nonPrivateEventsCostEverything() {
        List<DpEvent> events = List.of(new NonPrivateEvent("baseline"),
                ComposedEvent.of(new GaussianEvent(1.0), new NonPrivateEvent("seeded noise")),
                new SelfComposedEvent(new NonPrivateEvent("x"), 3),
                new GaussianEvent(0.0), new LaplaceEvent(0.0),
                new PoissonSampledEvent(0.1, new GaussianEvent(0.0)));
        for (DpEvent event : events) {
            assertThat(accountant.unsupported(event)).as(event.describe()).isEmpty();
            assertThat(accountant.epsilon(event, 0.5)).as(event.describe()).isEqualTo(Double.POSITIVE_INFINITY);
            assertThat(accountant.delta(event, 0.0)).as(event.describe()).isEqualTo(1.0);
            assertThat(accountant.delta(event, 50.0)).as(event.describe()).isEqualTo(1.0);
        }
    }

    @Test
    void noOpEventsCostNothing() {
        List<DpEvent> events = List.of(new NoOpEvent(), new ComposedEvent(List.of()),
                new SelfComposedEvent(new GaussianEvent(1.0), 0),
                new SelfComposedEvent(new NonPrivateEvent("never run"), 0),
                new PoissonSampledEvent(0.0, new GaussianEvent(1.0)),
                new PoissonSampledEvent(0.0, new LaplaceEvent(0.0)));
        for (DpEvent event : events) {
            assertThat(accountant.epsilon(event, 1e-9)).as(event.describe()).isZero();
            assertThat(accountant.delta(event, 0.0)).as(event.describe()).isZero();
        }
        DpEvent gaussian = new GaussianEvent(2.0);
        assertThat(accountant.delta(ComposedEvent.of(new NoOpEvent(), gaussian, new NoOpEvent()), 0.5))
                .isEqualTo(accountant.delta(gaussian, 0.5));
    }

    @Test
    void unsupportedEventsAreRefusedWithAReason() {
        PldAccountant replace = new PldAccountant(NeighbouringRelation.REPLACE_ONE);
        DpEvent sampled = new PoissonSampledEvent(0.1, new GaussianEvent(1.0));
        assertThat(replace.unsupported(sampled)).hasValueSatisfying(r -> assertThat(r).contains("add/remove"));
        assertThat(replace.unsupported(ComposedEvent.of(new GaussianEvent(1.0), new SelfComposedEvent(sampled, 5))))
                .isPresent();
        List<DpEvent> unsupported = List.of(
                new PoissonSampledEvent(0.1, new PoissonSampledEvent(0.5, new GaussianEvent(1.0))),
                new PoissonSampledEvent(0.1, new SelfComposedEvent(new GaussianEvent(1.0), 2)),
                new PoissonSampledEvent(0.1, new NoOpEvent()),
                ComposedEvent.of(new GaussianEvent(1.0),
                        new PoissonSampledEvent(0.1, ComposedEvent.of(new LaplaceEvent(1.0)))));
        for (DpEvent event : unsupported) {
            assertThat(accountant.unsupported(event)).as(event.describe())
                    .hasValueSatisfying(r -> assertThat(r).contains("Poisson subsampling"));
            assertThatThrownBy(() -> accountant.epsilon(event, 1e-5))
                    .isInstanceOf(PrivacyAccountant.UnsupportedEventException.class);
            assertThatThrownBy(() -> accountant.delta(event, 1.0))
                    .isInstanceOf(PrivacyAccountant.UnsupportedEventException.class);
        }
        assertThatThrownBy(() -> replace.delta(sampled, 1.0))
                .isInstanceOf(PrivacyAccountant.UnsupportedEventException.class)
                .hasMessageContaining("replace one record");
    }

    /** Gaussian and Laplace noise multipliers are relative to the sensitivity under the relation in force. */
    @Test
    void replaceOneAnalysesGaussianAndLaplaceLikeAddRemove() {
        PldAccountant replace = new PldAccountant(NeighbouringRelation.REPLACE_ONE);
        DpEvent event = ComposedEvent.of(new SelfComposedEvent(new GaussianEvent(1.5), 10), new LaplaceEvent(2.0));
        assertThat(replace.unsupported(event)).isEmpty();
        assertThat(replace.epsilon(event, 1e-5)).isEqualTo(accountant.epsilon(event, 1e-5));
    }

    @Test
    void validatesArguments() {
        DpEvent event = new GaussianEvent(1.0);
        for (double bad : new double[] {0.0, 1.0, -0.1, 1.5, Double.NaN}) {
            assertThatThrownBy(() -> accountant.epsilon(event, bad)).isInstanceOf(IllegalArgumentException.class)
                    .isNotInstanceOf(PrivacyAccountant.UnsupportedEventException.class)
                    .hasMessage("delta must be in (0, 1), got " + bad);
        }
        for (double bad : new double[] {-1e-9, -1.0, Double.NaN, Double.NEGATIVE_INFINITY}) {
            assertThatThrownBy(() -> accountant.delta(event, bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("epsilon must be >= 0, got " + bad);
        }
        for (double bad : new double[] {0.0, -1e-4, 2.0, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> new PldAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("discretisation interval");
        }
        assertThatThrownBy(() -> accountant.delta(null, 1.0)).isInstanceOf(NullPointerException.class);
        assertThat(accountant.delta(event, Double.POSITIVE_INFINITY)).isLessThan(1e-14);
    }

    @Test
    void coarserGridsGiveLargerButCloseBounds() {
        DpEvent event = dpSgd(1.5, 0.04, 500);
        double fine = accountant.epsilon(event, 1e-5);
        double coarse = new PldAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, 1e-3).epsilon(event, 1e-5);
        assertThat(coarse).isGreaterThanOrEqualTo(fine - 1e-9).isCloseTo(fine, within(0.01 * fine));
    }

    /**
     * 100,000 DP-SGD steps at the Opacus setting (q = 0.04, sigma = 1.5) compose within the support limit; the
     * time is printed for docs/privacy/pld-accountant.md.
     */
    @Test
    void hundredThousandSteps() {
        PldAccountant fresh = new PldAccountant();
        DpEvent event = dpSgd(1.5, 0.04, 100_000);
        long start = System.nanoTime();
        double eps = fresh.epsilon(event, 1e-5);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "PLD runtime: 100000 x PoissonSampled(0.04, Gaussian(1.5)), eps(1e-5) = %.6f in %.2f s%n",
                eps, seconds);
        assertThat(eps).isFinite().isGreaterThan(accountant.epsilon(dpSgd(1.5, 0.04, 2250), 1e-5));
        assertThat(fresh.delta(event, eps)).isLessThanOrEqualTo(1e-5);
        PldAccountant.PldPair pair = fresh.pld(event);
        for (DiscretePld pld : List.of(pair.remove(), pair.add())) {
            assertThat(pld.totalMass()).isCloseTo(1.0, within(1e-9));
            // truncation may add at most ~6e-15 per step to delta (see DiscretePld)
            assertThat(pld.truncatedMass()).isLessThan(6e-15 * 100_000);
        }
    }
}
