package org.privadapt.methods.audit;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.audit.OneRunBound;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Auditing with one training run (Steinke, Nasr and Jagielski 2023; {@link OneRunBound}): each of m canaries is in
 * the training data (or, under replace-one, in its "in" version rather than its "out" one) with independent
 * probability 1/2, drawn from the audit's noise source; one training; a score per canary from the released model; the
 * auditor guesses "in" for the k highest scores and "out" for the k lowest, for each k of a list fixed in advance
 * ({@link #GUESS_FRACTIONS}), and the bound is the largest over that list at confidence 1 - alpha / |list|
 * (Bonferroni). Several runs pool their canaries: a canary is in one run only, and the runs' noise is independent, so
 * the pooled mechanism is as private per canary as one run.
 */
public final class OneRunAudit {
    private OneRunAudit() {
    }

    /** The numbers of guesses, as fractions of the canaries, fixed before any run. */
    static final double[] GUESS_FRACTIONS = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0};

    /** A training with canaries: the scores of its {@link #perRun()} canaries, given which are in. */
    public interface Canaries {
        int perRun();

        /** One training with canary i included iff {@code in[i]}; a score per canary, higher meaning "in". */
        double[] scores(boolean[] in, NoiseSource noise);
    }

    /** An audit's outcome. */
    public record Result(String release, NeighbouringRelation relation, double claimedEpsilon, double delta, int canaries, int runs,
                         int guesses, int correct, double lowerBound, double confidence, double seconds) {
        public Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("release", release);
            m.put("relation", relation.description());
            m.put("method", "one training run per " + (canaries / runs) + " canaries (Steinke, Nasr, Jagielski 2023)");
            m.put("claimed_epsilon", claimedEpsilon);
            m.put("delta", delta);
            m.put("empirical_epsilon_lower_bound", lowerBound);
            m.put("confidence", confidence);
            m.put("canaries", canaries);
            m.put("training_runs", runs);
            m.put("guesses", guesses);
            m.put("correct_guesses", correct);
            m.put("seconds", seconds);
            return m;
        }
    }

    /** At least {@code canaries} canaries, in runs of {@link Canaries#perRun()}. */
    public static Result run(String name, NeighbouringRelation relation, Canaries c, double claimedEpsilon, double delta, long canaries,
                             double alpha, NoiseSource noise) {
        long t0 = System.nanoTime();
        int per = c.perRun();
        int runs = (int) Math.max(1, (canaries + per - 1) / per);
        int m = runs * per;
        double[] scores = new double[m];
        boolean[] in = new boolean[m];
        for (int r = 0; r < runs; r++) {
            boolean[] coins = new boolean[per];
            for (int i = 0; i < per; i++) {
                coins[i] = noise.bits().nextBernoulli(0.5);
            }
            double[] s = c.scores(coins, noise);
            if (s.length != per) {
                throw new IllegalStateException("expected " + per + " scores, got " + s.length);
            }
            System.arraycopy(s, 0, scores, r * per, per);
            System.arraycopy(coins, 0, in, r * per, per);
        }
        Integer[] order = new Integer[m];
        for (int i = 0; i < m; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(scores[b], scores[a])); // highest first
        double a = alpha / GUESS_FRACTIONS.length;
        double best = 0;
        int bestGuesses = 0;
        int bestCorrect = 0;
        for (double f : GUESS_FRACTIONS) {
            int k = Math.max(1, (int) Math.floor(f * m / 2)); // k "in" guesses at the top, k "out" at the bottom
            int correct = 0;
            for (int j = 0; j < k; j++) {
                correct += in[order[j]] ? 1 : 0;
                correct += in[order[m - 1 - j]] ? 0 : 1;
            }
            double e = OneRunBound.epsilon(m, 2 * k, correct, delta, a);
            if (e > best || bestGuesses == 0) {
                best = Math.max(best, e);
                bestGuesses = 2 * k;
                bestCorrect = correct;
            }
        }
        return new Result(name, relation, claimedEpsilon, delta, m, runs, bestGuesses, bestCorrect, best, 1 - alpha,
                (System.nanoTime() - t0) / 1e9);
    }

    /** For tests: the guess counts the audit tries for m canaries. */
    static List<Integer> guessCounts(int m) {
        return Arrays.stream(GUESS_FRACTIONS).mapToObj(f -> 2 * Math.max(1, (int) Math.floor(f * m / 2))).toList();
    }
}
