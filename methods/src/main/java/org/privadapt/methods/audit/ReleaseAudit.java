package org.privadapt.methods.audit;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.audit.EpsilonLowerBound;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Empirical auditing of a release (issue 30; docs/privacy/audit.md): the release runs many times on each of a
 * worst-case pair of neighbouring datasets, an attack reads one statistic from each output (the released value along
 * the direction in which the two datasets' exact releases differ: for a Gaussian release the likelihood-ratio test),
 * and the attack's rates give a lower bound on epsilon at the claimed delta ({@link EpsilonLowerBound}). Half of each
 * dataset's trials choose the threshold (the one with the largest bound on them), the other half, drawn after that
 * choice, count: so the bound holds at the stated confidence.
 */
public final class ReleaseAudit {
    private ReleaseAudit() {
    }

    /** One output's statistic, on D ({@code neighbour} false) or on D' (true), with fresh noise from {@code noise}. */
    @FunctionalInterface
    public interface Attack {
        double statistic(boolean neighbour, NoiseSource noise);
    }

    /** An audit's outcome. */
    public record Result(String release, NeighbouringRelation relation, double claimedEpsilon, double delta, long trials,
                         double threshold, long falsePositives, long truePositives, double lowerBound, double confidence,
                         double seconds) {
        public Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("release", release);
            m.put("relation", relation.description());
            m.put("claimed_epsilon", claimedEpsilon);
            m.put("delta", delta);
            m.put("empirical_epsilon_lower_bound", lowerBound);
            m.put("confidence", confidence);
            m.put("trials_per_dataset", trials);
            m.put("counted_trials_per_dataset", trials / 2);
            m.put("threshold", threshold);
            m.put("false_positives", falsePositives);
            m.put("true_positives", truePositives);
            m.put("seconds", seconds);
            return m;
        }
    }

    /** The releases {@code privadapt audit} knows, in the order it lists them. */
    public static final List<AuditedRelease> ALL = List.of(ClassStatisticsAudits.NCM, ClassStatisticsAudits.LDA, AdaSspAudit.ADASSP, PrimaAudits.TARGET,
            DpotAudits.RECORD, DpotAudits.ATTRIBUTE, PerturbationAudits.OUTPUT, PerturbationAudits.OBJECTIVE, SelectionAudits.SELECT,
            DpSgdAudit.DP_SGD, DpSgdAudit.DP_GD, DpSgdAudit.DP_SGD_SPARSE, DpdaAudit.DPDA_SPARSE, DpdaAudit.GDPDA_SPARSE, PateAudits.GNMAX, DpEmAudits.DP_EM, BassilyAudits.DESCENT, BassilyAudits.STATISTICS,
            BassilyAudits.PCNVXADAP, NCnvxAdapAudits.PNCNVXADAP);

    /** Their names. */
    public static final List<String> RELEASES = ALL.stream().map(AuditedRelease::name).toList();

    /** @throws IllegalArgumentException naming the auditable releases when {@code name} is not one */
    public static AuditedRelease release(String name) {
        for (AuditedRelease r : ALL) {
            if (r.name().equals(name)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown release '" + name + "' (auditable: " + String.join(", ", RELEASES) + ")");
    }

    /** A release's output vector on D ({@code neighbour} false) or D' (true), with fresh noise from {@code noise}. */
    @FunctionalInterface
    public interface Outputs {
        double[] output(boolean neighbour, NoiseSource noise);
    }

    /**
     * Audits a named release: prepares its attack and runs it, with {@code trials} outputs per dataset (pairs of
     * neighbours) or {@code trials} canaries (one-run audits); the outcome as {@link Result#describe()} or
     * {@link OneRunAudit.Result#describe()}.
     */
    public static Map<String, Object> audit(String name, NeighbouringRelation relation, double epsilon, double delta, long trials,
                                            double alpha, NoiseSource noise) {
        AuditedRelease r = release(name);
        if (!r.relations().contains(relation)) {
            throw new IllegalArgumentException(name + " is stated under " + r.relations().stream().map(NeighbouringRelation::description)
                    .toList() + " only, not " + relation.description());
        }
        AuditedRelease.Prepared p = r.prepare(epsilon, delta, relation, 1.0);
        if (p.canaries() != null) {
            return OneRunAudit.run(name, relation, p.canaries(), p.claimedEpsilon(), delta, trials, alpha, noise).describe();
        }
        return run(name, relation, p, delta, trials, alpha, noise).describe();
    }

    /**
     * Runs a prepared attack: for an output vector, first fits the linear test on {@code trials / 2} further outputs
     * per dataset (discarded afterwards), then as {@link #run(String, NeighbouringRelation, Attack, double, double, long,
     * double, NoiseSource)}.
     */
    public static Result run(String name, NeighbouringRelation relation, AuditedRelease.Prepared p, double delta, long trials,
                             double alpha, NoiseSource noise) {
        Attack a = p.attack() != null ? p.attack() : LinearDistinguisher.fit(p.outputs(), trials / 2, noise);
        return run(name, relation, a, p.claimedEpsilon(), delta, trials, alpha, noise);
    }

    /** Runs {@code trials} outputs on each dataset (half to choose the threshold, half counted). */
    public static Result run(String release, NeighbouringRelation relation, Attack attack, double claimedEpsilon, double delta,
                             long trials, double alpha, NoiseSource noise) {
        if (trials < 4 || trials > 200_000_000L) {
            throw new IllegalArgumentException("trials must be in [4, 2e8], got " + trials);
        }
        long t0 = System.nanoTime();
        int half = (int) (trials / 2);
        double[] c0 = new double[half];
        double[] c1 = new double[half];
        for (int i = 0; i < half; i++) {
            c0[i] = attack.statistic(false, noise);
            c1[i] = attack.statistic(true, noise);
        }
        double threshold = chooseThreshold(c0, c1, delta, alpha);
        long fp = 0;
        long tp = 0;
        for (int i = 0; i < half; i++) {
            if (attack.statistic(false, noise) > threshold) {
                fp++;
            }
            if (attack.statistic(true, noise) > threshold) {
                tp++;
            }
        }
        EpsilonLowerBound.Result b = EpsilonLowerBound.of(fp, half, tp, half, delta, alpha);
        return new Result(release, relation, claimedEpsilon, delta, trials, threshold, fp, tp, b.epsilon(), 1 - alpha,
                (System.nanoTime() - t0) / 1e9);
    }

    /** The threshold, among the D' calibration sample's upper order statistics, with the largest bound on the calibration half. */
    static double chooseThreshold(double[] c0, double[] c1, double delta, double alpha) {
        double[] s0 = c0.clone();
        double[] s1 = c1.clone();
        Arrays.sort(s0);
        Arrays.sort(s1);
        int n = s1.length;
        double best = Double.NEGATIVE_INFINITY;
        double bestThreshold = s1[n / 2];
        // candidate thresholds: the D' sample at geometrically spaced upper ranks (the tail decides epsilon)
        for (double r = 1; r < n / 2.0; r *= 1.15) {
            double tau = s1[n - 1 - (int) r];
            long tp = n - upperIndex(s1, tau);
            long fp = s0.length - upperIndex(s0, tau);
            double e = EpsilonLowerBound.of(fp, s0.length, tp, n, delta, alpha).epsilon();
            if (e > best) {
                best = e;
                bestThreshold = tau;
            }
        }
        return bestThreshold;
    }

    /** The number of entries of a sorted array at or below {@code tau}. */
    static int upperIndex(double[] sorted, double tau) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= tau) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
