package org.privadapt.methods.audit;

import java.util.Set;
import org.privadapt.privacy.NeighbouringRelation;

/**
 * A release {@code privadapt audit} can attack (docs/privacy/audit.md): it builds, for a claimed (epsilon, delta) and a
 * neighbouring relation, a worst-case pair of neighbouring datasets and either the optimal test statistic (when the
 * mechanism's noise is known: the likelihood ratio) or the release's output vector, from which {@link ReleaseAudit}
 * fits a linear distinguisher on outputs it then discards; or, for a training too slow to repeat a million times, many
 * canaries in one run ({@link OneRunAudit}).
 */
public interface AuditedRelease {
    /** The name {@code --release} takes. */
    String name();

    /** One line: the pair of neighbours and the test. */
    String design();

    /** The default number of outputs per dataset (or of canaries, for a one-run audit). */
    default long defaultTrials() {
        return 1_000_000;
    }

    /** The relations the release is stated under (others are refused with a reason). */
    Set<NeighbouringRelation> relations();

    /**
     * The attack at the claimed (epsilon, delta) under {@code relation}, with the release's noise multiplied by
     * {@code noiseScale} (1 in every audit; 0.5 only in the test that an injected bug is caught).
     */
    Prepared prepare(double epsilon, double delta, NeighbouringRelation relation, double noiseScale);

    /**
     * What an audit runs: a scalar statistic ({@code attack}), or the output vector ({@code outputs}) for a fitted
     * linear test; and the epsilon the release claims (what it charges for those settings).
     */
    record Prepared(ReleaseAudit.Attack attack, ReleaseAudit.Outputs outputs, OneRunAudit.Canaries canaries, double claimedEpsilon) {
        public Prepared {
            int given = (attack == null ? 0 : 1) + (outputs == null ? 0 : 1) + (canaries == null ? 0 : 1);
            if (given != 1) {
                throw new IllegalArgumentException("exactly one of attack, outputs and canaries");
            }
        }

        public static Prepared statistic(ReleaseAudit.Attack a, double claimedEpsilon) {
            return new Prepared(a, null, null, claimedEpsilon);
        }

        public static Prepared vector(ReleaseAudit.Outputs o, double claimedEpsilon) {
            return new Prepared(null, o, null, claimedEpsilon);
        }

        /** An audit with one training run per {@link OneRunAudit.Canaries#perRun()} canaries (DP-SGD). */
        public static Prepared oneRun(OneRunAudit.Canaries c, double claimedEpsilon) {
            return new Prepared(null, null, c, claimedEpsilon);
        }
    }
}
