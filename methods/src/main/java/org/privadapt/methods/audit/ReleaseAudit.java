package org.privadapt.methods.audit;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.models.dp.SessionRandomness;
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

    /** The releases {@link #attack} builds. */
    public static final List<String> RELEASES = List.of("ncm", "lda");

    /**
     * The worst-case attack on a named release at (epsilon, delta) under a relation: for {@code ncm}, the class sums of
     * unit rows as dp-source-only releases them (PrivateLearners' plan and release code), D two rows of two classes in
     * one dimension, D' with a third row at the bound in class 0 (add/remove) or D's class-0 row replaced by its opposite
     * (replace-one: the sum moves by the sensitivity 2); the statistic is the class-0 sum signed towards D'.
     */
    public static Attack attack(String release, double epsilon, double delta, NeighbouringRelation relation) {
        return attack(release, epsilon, delta, relation, 1.0);
    }

    /**
     * As {@link #attack(String, double, double, NeighbouringRelation)} with the release's noise multiplied by
     * {@code noiseScale}: an injected bug (0.5: the noise halved, the same as a sensitivity understated by half) that the
     * audit must catch (ReleaseAuditTest). Never used by a release.
     */
    static Attack attack(String release, double epsilon, double delta, NeighbouringRelation relation, double noiseScale) {
        if (!RELEASES.contains(release)) {
            throw new IllegalArgumentException("unknown release '" + release + "' (auditable: " + RELEASES + ")");
        }
        boolean add = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE;
        if ("lda".equals(release)) {
            return ldaAttack(epsilon, delta, relation, noiseScale, add);
        }
        MethodConfig c = MethodConfig.defaults().withParam("learner", "ncm");
        PrivateLearners.Plan plan = scaled(PrivateLearners.plan(c, 2, 1, 2, epsilon, delta, relation, null, 1), noiseScale);
        DenseMatrix d = DenseMatrix.fromRows(new double[][] {{1}, {-1}});
        int[] yd = {0, 1};
        DenseMatrix dPrime = add ? DenseMatrix.fromRows(new double[][] {{1}, {-1}, {1}}) : DenseMatrix.fromRows(new double[][] {{-1}, {-1}});
        int[] yPrime = add ? new int[] {0, 1, 0} : new int[] {0, 1};
        double sign = add ? 1 : -1;
        return (neighbour, noise) -> {
            DenseMatrix x = neighbour ? dPrime : d;
            int[] y = neighbour ? yPrime : yd;
            return sign * PrivateLearners.ncmRelease(plan, x, y, 2, new SessionRandomness(noise)).sums().get(0, 0);
        };
    }

    private static PrivateLearners.Plan scaled(PrivateLearners.Plan p, double noiseScale) {
        return noiseScale == 1.0 ? p : new PrivateLearners.Plan(p.kind(), p.event(), p.noiseMultiplier() * noiseScale, p.gradient(),
                p.config(), p.relation(), p.runs(), p.objective());
    }

    /**
     * lda's release: counts, sums and the second moment, three Gaussian blocks claimed to compose into one. D: rows +R
     * (class 0) and -R (class 1) in one dimension, R = 1. Add/remove: D' adds +R to class 0, moving the class-0 count by
     * 1, its sum by R and the moment by R^2, every block by its full sensitivity. Replace-one: D's class-0 row becomes -R
     * in class 1 (the counts move by sqrt 2 in L2, the sums by sqrt 2 R, the moment not at all: below the replace-one
     * sensitivities (sqrt 2, 2R, sqrt 2 R^2), which no single pair attains together). The statistic is the
     * likelihood-ratio test of independent Gaussian blocks: the sum over released coordinates of shift times
     * (output - D's exact value) over the coordinate's noise variance.
     */
    private static Attack ldaAttack(double epsilon, double delta, NeighbouringRelation relation, double noiseScale, boolean add) {
        MethodConfig c = MethodConfig.defaults().withParam("learner", "lda").withParam("learner-row-bound", "1");
        PrivateLearners.Plan plan = scaled(PrivateLearners.plan(c, 2, 1, 2, epsilon, delta, relation, null, 1), noiseScale);
        DenseMatrix d = DenseMatrix.fromRows(new double[][] {{1}, {-1}});
        int[] yd = {0, 1};
        DenseMatrix dPrime = add ? DenseMatrix.fromRows(new double[][] {{1}, {-1}, {1}}) : DenseMatrix.fromRows(new double[][] {{-1}, {-1}});
        int[] yPrime = add ? new int[] {0, 1, 0} : new int[] {1, 1};
        org.privadapt.models.dp.ClassStatistics exactD = org.privadapt.models.dp.ClassStatistics.of(d, yd, 2, true);
        org.privadapt.models.dp.ClassStatistics exactE = org.privadapt.models.dp.ClassStatistics.of(dPrime, yPrime, 2, true);
        double[] mean0 = flat(exactD);
        double[] shift = flat(exactE);
        // the claimed noise variances per coordinate, from a noise-free reading of the plan's multipliers
        double countShare = plan.config().param("lda-count-share", 0.05); // the plan's own shares, as ldaRelease reads them
        double momentShare = plan.config().param("lda-moment-share", 0.5);
        double sumShare = 1 - countShare - momentShare;
        org.privadapt.models.dp.ClassStatistics.Sensitivities sens = org.privadapt.models.dp.ClassStatistics.sensitivities(relation, 1.0);
        double s = plan.noiseMultiplier() / noiseScale; // the claim's multiplier (an injected bug must not inform the test)
        double vc = Math.pow(s / Math.sqrt(countShare) * sens.count(), 2);
        double vs = Math.pow(s / Math.sqrt(sumShare) * sens.sum(), 2);
        double vm = Math.pow(s / Math.sqrt(momentShare) * sens.moment(), 2);
        double[] w = new double[mean0.length];
        for (int i = 0; i < w.length; i++) {
            shift[i] -= mean0[i];
            double v = i < 2 ? vc : i < 4 ? vs : vm;
            w[i] = shift[i] / v;
        }
        return (neighbour, noise) -> {
            double[] out = flat(PrivateLearners.ldaRelease(plan, neighbour ? dPrime : d, neighbour ? yPrime : yd, 2,
                    new SessionRandomness(noise)));
            double t = 0;
            for (int i = 0; i < out.length; i++) {
                t += w[i] * (out[i] - mean0[i]);
            }
            return t;
        };
    }

    /** counts (2), sums (2 x 1), the moment (1 x 1) as one vector. */
    private static double[] flat(org.privadapt.models.dp.ClassStatistics c) {
        return new double[] {c.counts()[0], c.counts()[1], c.sums().get(0, 0), c.sums().get(1, 0), c.moment().get(0, 0)};
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
