package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.Classifier;
import org.privadapt.models.Metrics;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.models.uda.RefinementCriteria;

/**
 * {@code refine=auto} ({@link TargetRefinements#choose}): on generated rows whose clusters carry the classes it keeps a
 * clustering refinement and beats the received model; on rows whose dominant clusters cut across the classes (as
 * topics cut across sentiment in bag-of-words reviews) it refuses the clustering and stays with the base; it reads
 * no label; the degenerate-prediction warning. Fixed seeds; tolerances stated.
 */
class TargetRefinementsAutoTest {
    static final List<String> ABC = List.of("a", "b", "c");
    static final List<String> AB = List.of("a", "b");

    static double gauss(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    record Sample(DenseMatrix x, int[] y) {
    }

    static Network linear(double[][] wRows, double[] b, List<String> names) {
        int k = wRows.length;
        int d = wRows[0].length;
        DenseMatrix w = DenseMatrix.zeros(d, k);
        for (int c = 0; c < k; c++) {
            for (int j = 0; j < d; j++) {
                w.set(j, c, wRows[c][j]);
            }
        }
        return Network.fromParameters(new int[] {d, k}, Activation.IDENTITY, List.of(w), List.of(b), names);
    }

    static double accuracy(int[] pred, int[] y) {
        int ok = 0;
        for (int i = 0; i < y.length; i++) {
            ok += pred[i] == y[i] ? 1 : 0;
        }
        return (double) ok / y.length;
    }

    /** 3 clusters around 4 e_c in R^6 plus a common offset 2 on the last coordinate (non-negative-like), sd 1.2. */
    static Sample clusters(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 300;
        int d = 6;
        DenseMatrix x = DenseMatrix.zeros(n, d);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 3;
            for (int j = 0; j < d; j++) {
                x.set(i, j, (j == y[i] ? 4 : 0) + (j == d - 1 ? 2 : 0) + 1.2 * gauss(r));
            }
        }
        return new Sample(x, y);
    }

    /** A poor received model for {@link #clusters}: each class's weight leans towards the next class's centre. */
    static Network poor() {
        double[][] w = new double[3][6];
        for (int c = 0; c < 3; c++) {
            w[c][c] = 1;
            w[c][(c + 1) % 3] = 0.8;
        }
        return linear(w, new double[] {1.0, 0, 0}, ABC);
    }

    /**
     * Two classes that differ by +-0.7 along e_1 (sd 0.4), while the rows form two far clusters along e_0 (+-3, sd 0.5),
     * each holding both classes equally: the dominant cluster structure does not carry the classes. Four more noise
     * coordinates (sd 0.4).
     */
    static Sample crossing(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 400;
        int d = 6;
        DenseMatrix x = DenseMatrix.zeros(n, d);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
            int cluster = (i / 2) % 2;
            x.set(i, 0, (cluster == 0 ? 3 : -3) + 0.5 * gauss(r));
            x.set(i, 1, (y[i] == 0 ? 0.7 : -0.7) + 0.4 * gauss(r));
            for (int j = 2; j < d; j++) {
                x.set(i, j, 0.4 * gauss(r));
            }
        }
        return new Sample(x, y);
    }

    /** A received model for {@link #crossing}: the class direction e_1, a little of e_0 and e_2 (noise of a release). */
    static Network sentiment() {
        return linear(new double[][] {{0.15, 1, 0.2, 0, 0, 0}, {-0.15, -1, -0.2, 0, 0, 0}}, new double[2], AB);
    }

    static MethodConfig config(String refine) {
        return refine == null ? MethodConfig.defaults() : MethodConfig.defaults().withParam("refine", refine);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> choice(TargetRefinements.Refined r) {
        return (Map<String, Object>) r.diagnostics().get("refine");
    }

    @Test
    void autoKeepsAClusteringRefinementWhereTheClustersCarryTheClasses() {
        Sample s = clusters(11);
        Network received = poor();
        assertThat(TargetRefinements.mode(MethodConfig.defaults())).isEqualTo("none"); // auto is asked for, not the default
        double none = accuracy(received.predict(s.x()), s.y());
        assertThat(none).as("the received model is poor").isBetween(0.4, 0.8);
        TargetRefinements.Refined auto = TargetRefinements.refine(config("auto"), received, s.x());
        Map<String, Object> d = choice(auto);
        assertThat(d).containsEntry("mode", "auto").containsEntry("base", "none").containsKeys("candidates", "reason", "cost");
        assertThat((String) d.get("chosen")).isIn("centroids", "im-centroids", "im", "self-training");
        assertThat((Map<String, Object>) d.get("candidates")).containsKeys("none", "centre", "centroids", "im-centroids", "im",
                "self-training");
        assertThat((String) d.get("cost")).contains("nothing released").contains("no label");
        double refined = accuracy(auto.model().predict(s.x()), s.y());
        // the clusters are the classes: k-means from the received labelling recovers them (at least 15 points gained)
        assertThat(refined).isGreaterThan(none + 0.15).isGreaterThan(0.85);
        // the model auto returns is the chosen mode's own
        String chosen = (String) d.get("chosen");
        assertThat(TargetRefinements.apply(config(chosen), received, s.x()).predict(s.x())).isEqualTo(auto.model().predict(s.x()));
    }

    @Test
    void autoRefusesAClusteringThatCutsAcrossTheClasses() {
        Sample s = crossing(5);
        Network received = sentiment();
        double none = accuracy(received.predict(s.x()), s.y());
        double centre = accuracy(TargetRefinements.apply(config("centre"), received, s.x()).predict(s.x()), s.y());
        double centroids = accuracy(TargetRefinements.apply(config("centroids"), received, s.x()).predict(s.x()), s.y());
        assertThat(none).as("the received model carries the classes").isGreaterThan(0.85);
        // the scenario: the clustering refinement follows the dominant clusters and loses the classes (>= 20 points)
        assertThat(centroids).isLessThan(centre - 0.2);
        TargetRefinements.Refined auto = TargetRefinements.refine(config("auto"), received, s.x());
        Map<String, Object> d = choice(auto);
        assertThat((String) d.get("chosen")).isNotIn("centroids", "im-centroids");
        @SuppressWarnings("unchecked")
        Map<String, Object> cand = (Map<String, Object>) ((Map<String, Object>) d.get("candidates")).get("centroids");
        assertThat((String) cand.get("verdict")).startsWith("rejected");
        double a = accuracy(auto.model().predict(s.x()), s.y());
        // within 2 points of centre and of none
        assertThat(a).isGreaterThan(Math.max(centre, none) - 0.02);
    }

    @Test
    void autoRejectsACollapseOntoOneClass() {
        // the base labels half the rows each class; a candidate that puts 95 % in one class is refused, whatever its separation
        Sample s = crossing(9);
        int n = s.y().length;
        int[] base = new int[n];
        int[] collapsed = new int[n];
        for (int i = 0; i < n; i++) {
            base[i] = s.x().get(i, 1) > 0 ? 0 : 1;
            collapsed[i] = i < n / 20 ? base[i] : 0;
        }
        Map<String, int[]> labels = new java.util.LinkedHashMap<>();
        labels.put("none", base);
        labels.put("centroids", collapsed);
        TargetRefinements.Choice c = TargetRefinements.choose(s.x(), labels, AB, "none");
        assertThat(c.chosen()).isEqualTo("none");
        @SuppressWarnings("unchecked")
        Map<String, Object> cand = (Map<String, Object>) ((Map<String, Object>) c.diagnostics().get("candidates")).get("centroids");
        assertThat((String) cand.get("verdict")).contains("degenerate");
        assertThat((double) cand.get("max_share")).isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void theGuardRefusesRelabellingMostRowsWithoutAClearGain() {
        // a candidate that swaps two of three classes on most rows: kappa can stay high for the third, agreement < 0.5
        Sample s = clusters(3);
        int n = s.y().length;
        int[] base = s.y().clone();
        int[] swapped = new int[n];
        for (int i = 0; i < n; i++) {
            swapped[i] = base[i] == 2 ? 2 : 1 - base[i];
        }
        Map<String, int[]> labels = new java.util.LinkedHashMap<>();
        labels.put("none", base);
        labels.put("centroids", swapped);
        TargetRefinements.Choice c = TargetRefinements.choose(s.x(), labels, ABC, "none");
        assertThat(c.chosen()).isEqualTo("none"); // the same partition: no separation gain, and most rows relabelled
    }

    @Test
    void autoReadsNoLabelAndIsDeterministic() {
        // refine's inputs are the model and the rows: the same rows give the same choice and predictions, run twice; the
        // labels of the generated sample are never passed (and permuting them changes nothing: they are not an input)
        Sample s = clusters(21);
        TargetRefinements.Refined a = TargetRefinements.refine(config("auto"), poor(), s.x());
        TargetRefinements.Refined b = TargetRefinements.refine(config("auto"), poor(), s.x());
        assertThat(a.diagnostics()).isEqualTo(b.diagnostics());
        assertThat(a.model().predict(s.x())).isEqualTo(b.model().predict(s.x()));
    }

    @Test
    void compositeModelsChooseAmongNoneCentroidsAndSelfTraining() {
        Sample s = clusters(4);
        int[] predicted = poor().predict(s.x());
        TargetRefinements.Refined r = TargetRefinements.refinePredictions(config("auto"), predicted, ABC, s.x());
        Map<String, Object> d = choice(r);
        assertThat((Map<String, Object>) d.get("candidates")).containsOnlyKeys("none", "centroids", "self-training");
        assertThat(d).containsEntry("base", "none");
        assertThat((String) d.get("chosen")).isNotEqualTo("none");
        assertThat(accuracy(r.model().predict(s.x()), s.y())).isGreaterThan(accuracy(predicted, s.y()) + 0.15);
        // refine=none: no model, no diagnostics
        TargetRefinements.Refined none = TargetRefinements.refinePredictions(config("none"), predicted, ABC, s.x());
        assertThat(none.model()).isNull();
        assertThat(none.diagnostics()).isEmpty();
        assertThatThrownBy(() -> TargetRefinements.mode(config("Auto"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("auto, none");
    }

    @Test
    void criteriaOnKnownLabellings() {
        Sample s = clusters(8);
        int k = 3;
        // the true classes separate the rows far better than a random labelling with the same balance
        int[] shuffled = s.y().clone();
        SplittableRandom r = new SplittableRandom(1);
        for (int i = shuffled.length - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = shuffled[i];
            shuffled[i] = shuffled[j];
            shuffled[j] = t;
        }
        assertThat(RefinementCriteria.separation(s.x(), s.y(), k)).isGreaterThan(0.3);
        assertThat(RefinementCriteria.separation(s.x(), shuffled, k)).isLessThan(0.02);
        assertThat(RefinementCriteria.balance(s.y(), k)).isEqualTo(1.0, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(RefinementCriteria.balance(new int[30], k)).isZero();
        assertThat(RefinementCriteria.kappa(s.y(), s.y(), k)).isEqualTo(1.0, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(RefinementCriteria.kappa(s.y(), shuffled, k)).isBetween(-0.1, 0.1);
    }

    @Test
    void degenerateWarningFiresForOneClassAndNotForBalancedPredictions() {
        int[] one = new int[100];
        one[0] = 1; // 99 % class a
        assertThat(Metrics.degenerateWarning(one, AB)).contains("degenerate").contains("'a'").contains("99.0 %");
        int[] ninety = new int[100];
        for (int i = 0; i < 10; i++) {
            ninety[i] = 1;
        }
        assertThat(Metrics.degenerateWarning(ninety, AB)).as("90 %% is the threshold").isNotNull();
        int[] balanced = new int[100];
        for (int i = 0; i < 100; i++) {
            balanced[i] = i % 3;
        }
        assertThat(Metrics.degenerateWarning(balanced, ABC)).isNull();
        int[] eightyNine = new int[100];
        for (int i = 0; i < 11; i++) {
            eightyNine[i] = 1;
        }
        assertThat(Metrics.degenerateWarning(eightyNine, AB)).isNull();
        assertThat(Metrics.degenerateWarning(new int[100], List.of("only"))).as("one class: nothing to warn").isNull();
        // a model that predicts one class for every row
        Network constant = linear(new double[][] {new double[6], new double[6]}, new double[] {1, 0}, AB);
        Classifier c = constant;
        assertThat(Metrics.degenerateWarning(c.predict(crossing(1).x()), AB)).isNotNull();
    }
}
