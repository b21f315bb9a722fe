package org.privadapt.methods.audit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The adassp release audited as {@code privadapt audit --release adassp} runs it (fixed seeds, 200,000 outputs per
 * dataset): under both relations the 95 % lower bound stays at most the claimed epsilon 2 and is not vacuous (the
 * moment and cross blocks move by their full sensitivity together; the eigenvalue by less); with the noise halved the
 * bound exceeds the claim.
 */
class AdaSspAuditTest {
    static final long TRIALS = 200_000;

    @Test
    void theLowerBoundStaysBelowTheClaimAndAnInjectedBugIsCaught() {
        assertThat(ReleaseAudit.RELEASES).contains("adassp");
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            ReleaseAudit.Result r = ReleaseAudit.run("adassp", rel, ReleaseAudit.release("adassp").prepare(2.0, 1e-5, rel, 1.0), 1e-5,
                    TRIALS, 0.05, NoiseSource.seeded(44));
            assertThat(r.lowerBound()).as("%s", rel).isLessThanOrEqualTo(2.0).isGreaterThan(0.8);
            ReleaseAudit.Result bug = ReleaseAudit.run("adassp (noise halved)", rel, ReleaseAudit.release("adassp").prepare(2.0, 1e-5, rel, 0.5),
                    1e-5, TRIALS, 0.05, NoiseSource.seeded(45));
            assertThat(bug.lowerBound()).as("%s, noise halved", rel).isGreaterThan(2.0);
        }
    }
}
