package org.privadapt.methods.audit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The fast audits of PATE's GNMax answer, DP-EM and paper 003's two releases (issue 30), each with a fixed seed and a
 * number of outputs that keeps it to a few seconds: the 95 % lower bound stays at or below the epsilon the release
 * charges, and is not vacuous. Slower ones run fewer outputs, so their bounds are further from the claim than the
 * measured ones (docs/results/audit.md); the fractions asserted are what those outputs reach with margin.
 */
class ReleaseAuditPaperReleasesTest {
    static ReleaseAudit.Result audit(String name, NeighbouringRelation rel, long trials, long seed) {
        return ReleaseAudit.run(name, rel, ReleaseAudit.release(name).prepare(2.0, 1e-5, rel, 1.0), 1e-5, trials, 0.05,
                NoiseSource.seeded(seed));
    }

    @Test
    void pateStaysBelowItsChargedEpsilonUnderBothRelations() {
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            ReleaseAudit.Result r = audit("pate", rel, 400_000, 40 + rel.ordinal());
            // the plan spends the requested epsilon to within the calibration's tolerance; 200,000 counted outputs reach
            // about 70 % of it with these seeds
            assertThat(r.claimedEpsilon()).as("%s", rel).isLessThanOrEqualTo(2.0).isGreaterThan(1.99);
            assertThat(r.lowerBound()).as("%s", rel).isLessThanOrEqualTo(r.claimedEpsilon()).isGreaterThan(0.5 * r.claimedEpsilon());
        }
    }

    @Test
    void dpEmStaysBelowItsChargedEpsilon() {
        ReleaseAudit.Result r = audit("dp-em", NeighbouringRelation.ADD_OR_REMOVE_ONE, 30_000, 42);
        // calibrated by the RDP accountant at 2, certified by the exact Gaussian profile below it
        assertThat(r.claimedEpsilon()).isLessThan(2.0).isGreaterThan(1.5);
        // 15,000 counted outputs: 48 % of the claim with this seed
        assertThat(r.lowerBound()).isLessThanOrEqualTo(r.claimedEpsilon()).isGreaterThan(0.3 * r.claimedEpsilon());
    }

    @Test
    void bassilyDescentStaysBelowItsChargedEpsilon() {
        ReleaseAudit.Result r = audit("bassily-descent", NeighbouringRelation.REPLACE_ONE, 15_000, 43);
        assertThat(r.claimedEpsilon()).isCloseTo(2.0, org.assertj.core.api.Assertions.within(1e-6));
        // 7,500 counted outputs (about 100 microseconds each): 31 % of the claim with this seed
        assertThat(r.lowerBound()).isLessThanOrEqualTo(r.claimedEpsilon()).isGreaterThan(0.2 * r.claimedEpsilon());
    }

    @Test
    void bassilyStatisticsStaysBelowItsChargedEpsilon() {
        ReleaseAudit.Result r = audit("bassily-statistics", NeighbouringRelation.REPLACE_ONE, 30_000, 44);
        // the statistics' own event: (1 - 0.2) epsilon, the discrepancy's share not attacked
        assertThat(r.claimedEpsilon()).isCloseTo(1.6, org.assertj.core.api.Assertions.within(1e-6));
        // 15,000 counted outputs, a pair at 87 % of the sensitivity: 38 % of the claim with this seed
        assertThat(r.lowerBound()).isLessThanOrEqualTo(r.claimedEpsilon()).isGreaterThan(0.25 * r.claimedEpsilon());
    }

    @Test
    void theReleasesRefuseTheRelationsTheyAreNotStatedUnder() {
        for (String name : new String[] {"dp-em", "bassily-descent", "bassily-statistics"}) {
            AuditedRelease r = ReleaseAudit.release(name);
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                if (!r.relations().contains(rel)) {
                    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReleaseAudit.audit(name, rel, 2.0, 1e-5, 100, 0.05,
                            NoiseSource.seeded(1))).isInstanceOf(IllegalArgumentException.class);
                }
            }
        }
    }
}
