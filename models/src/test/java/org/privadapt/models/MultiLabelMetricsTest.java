package org.privadapt.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privadapt.data.MultiLabels;

class MultiLabelMetricsTest {
    // 5 rows, 3 labels
    static final MultiLabels TRUTH = new MultiLabels(new int[][] {
        {1, 0, 0},
        {1, 1, 0},
        {0, 0, 0},
        {0, 1, 0},
        {1, 0, 0}}, List.of("a", "b", "c"));
    static final int[][] PRED = {
        {1, 0, 0},
        {0, 1, 1},
        {1, 0, 0},
        {0, 0, 0},
        {1, 0, 0}};

    @Test
    void perLabelCountsAndScoresByHand() {
        MultiLabelMetrics.Report r = MultiLabelMetrics.evaluate(TRUTH, PRED);
        // label a: truth 1,1,0,0,1; pred 1,0,1,0,1 -> TP 2, FP 1, FN 1, TN 1
        MultiLabelMetrics.LabelScores a = r.label("a");
        assertThat(List.of(a.truePositives(), a.falsePositives(), a.falseNegatives(), a.trueNegatives())).containsExactly(2, 1, 1, 1);
        assertThat(a.accuracy()).isEqualTo(3.0 / 5);
        assertThat(a.precision()).isEqualTo(2.0 / 3);
        assertThat(a.recall()).isEqualTo(2.0 / 3);
        assertThat(a.f1()).isCloseTo(2.0 / 3, within(1e-15));
        assertThat(a.support()).isEqualTo(3);
        // label b: truth 0,1,0,1,0; pred 0,1,0,0,0 -> TP 1, FP 0, FN 1, TN 3
        MultiLabelMetrics.LabelScores b = r.label("b");
        assertThat(b.accuracy()).isEqualTo(4.0 / 5);
        assertThat(b.precision()).isEqualTo(1.0);
        assertThat(b.recall()).isEqualTo(0.5);
        assertThat(b.f1()).isCloseTo(2.0 / 3, within(1e-15)); // 2 / (2 + 0 + 1)
        assertThat(b.support()).isEqualTo(2);
        // label c: no true positive, one false positive -> precision 0/1, recall 0/0 := 0, F1 0/1
        MultiLabelMetrics.LabelScores c = r.label("c");
        assertThat(c.accuracy()).isEqualTo(4.0 / 5);
        assertThat(c.precision()).isZero();
        assertThat(c.recall()).isZero();
        assertThat(c.f1()).isZero();
        assertThat(c.support()).isZero();
        assertThat(r.meanAccuracy()).isCloseTo((0.6 + 0.8 + 0.8) / 3, within(1e-15));
        assertThat(r.meanPrecision()).isCloseTo((2.0 / 3 + 1 + 0) / 3, within(1e-15));
        assertThat(r.meanRecall()).isCloseTo((2.0 / 3 + 0.5 + 0) / 3, within(1e-15));
        assertThat(r.meanF1()).isCloseTo((2.0 / 3 + 2.0 / 3 + 0) / 3, within(1e-15));
        assertThat(r.exactMatch()).isEqualTo(2.0 / 5); // rows 0 and 4
    }

    @Test
    void accuracyEqualsMicroAveragedPrecisionRecallAndF1OverBothClasses() {
        // micro over both classes: precision = recall = F1 = (TP of class 1 + TP of class 0) / n = accuracy
        MultiLabelMetrics.Report r = MultiLabelMetrics.evaluate(TRUTH, PRED);
        for (MultiLabelMetrics.LabelScores s : r.labels()) {
            int correct = s.truePositives() + s.trueNegatives();
            int predictedTotal = (s.truePositives() + s.falsePositives()) + (s.trueNegatives() + s.falseNegatives());
            assertThat(s.accuracy()).isEqualTo((double) correct / predictedTotal);
        }
    }

    @Test
    void zeroOverZeroIsZeroWhenNothingIsPositive() {
        MultiLabels truth = new MultiLabels(new int[][] {{0}, {0}}, List.of("x"));
        MultiLabelMetrics.LabelScores s = MultiLabelMetrics.evaluate(truth, new int[][] {{0}, {0}}).label("x");
        assertThat(s.accuracy()).isEqualTo(1.0);
        assertThat(s.precision()).isZero();
        assertThat(s.recall()).isZero();
        assertThat(s.f1()).isZero();
    }

    @Test
    void scoresAreThresholded() {
        double[][] scores = {{0.9, 0.1, 0.0}, {0.4, 0.5, 0.7}, {0.5, 0.2, 0.3}, {0.2, 0.49, 0.1}, {0.99, 0.0, 0.0}};
        assertThat(MultiLabelMetrics.evaluateScores(TRUTH, scores, 0.5)).isEqualTo(MultiLabelMetrics.evaluate(TRUTH, PRED));
    }

    @Test
    void refusesShapeMismatchesAndNonBinaryPredictions() {
        assertThatThrownBy(() -> MultiLabelMetrics.evaluate(TRUTH, new int[4][3])).hasMessageContaining("4 predicted rows for 5");
        assertThatThrownBy(() -> MultiLabelMetrics.evaluate(TRUTH, new int[][] {{1, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}))
                .hasMessageContaining("2 values for 3 labels");
        int[][] bad = {{2, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
        assertThatThrownBy(() -> MultiLabelMetrics.evaluate(TRUTH, bad)).hasMessageContaining("not 0 or 1");
        MultiLabels empty = new MultiLabels(new int[0][], List.of("x"));
        assertThatThrownBy(() -> MultiLabelMetrics.evaluate(empty, new int[0][])).hasMessageContaining("no rows");
    }
}
