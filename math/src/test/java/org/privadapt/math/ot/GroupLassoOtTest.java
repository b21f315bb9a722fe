package org.privadapt.math.ot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

class GroupLassoOtTest {
    private static final SinkhornOptions INNER = SinkhornOptions.defaults().withMaxIterations(5000);

    /** Two source classes as Gaussian blobs 3 apart in the plane; the target is the same layout shifted by 2. */
    private static final int PER_CLASS = 15;

    private static DenseMatrix blobCost(int[] labelsOut) {
        int n = 2 * PER_CLASS;
        SplittableRandom r = new SplittableRandom(3);
        DenseMatrix xs = DenseMatrix.zeros(n, 2);
        DenseMatrix xt = DenseMatrix.zeros(n, 2);
        for (int i = 0; i < n; i++) {
            int c = i < PER_CLASS ? 0 : 1;
            labelsOut[i] = c;
            xs.set(i, 0, 3.0 * c + r.nextGaussian());
            xs.set(i, 1, r.nextGaussian());
            xt.set(i, 0, 3.0 * c + r.nextGaussian());
            xt.set(i, 1, 2.0 + r.nextGaussian());
        }
        return OtTestData.normalisedSquaredEuclidean(xs, xt);
    }

    /** Per target column, the share of its mass that comes from its majority class. */
    private static double[] columnPurity(DenseMatrix plan, int[] labels) {
        double[] purity = new double[plan.cols()];
        for (int j = 0; j < plan.cols(); j++) {
            double[] perClass = new double[2];
            for (int i = 0; i < plan.rows(); i++) {
                perClass[labels[i]] += plan.get(i, j);
            }
            purity[j] = Math.max(perClass[0], perClass[1]) / (perClass[0] + perClass[1]);
        }
        return purity;
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    @Test
    void objectiveDecreasesMonotonicallyAndMarginalsHold() {
        int[] labels = new int[2 * PER_CLASS];
        DenseMatrix c = blobCost(labels);
        double[] w = CostMatrices.uniform(2 * PER_CLASS);
        DenseMatrix cCopy = c.copy();
        List<Double> trace = new ArrayList<>();
        Coupling r = GroupLassoOt.run(w, w, c, labels, 0.01, 1.0, 30, INNER, trace);
        assertThat(trace).hasSizeGreaterThan(10);
        for (int k = 1; k < trace.size(); k++) {
            assertThat(trace.get(k)).as("objective after step %d", k).isLessThanOrEqualTo(trace.get(k - 1) + 1e-12);
        }
        assertThat(trace.get(trace.size() - 1)).isLessThan(trace.get(0));
        assertThat(GroupLassoOt.objective(r.plan(), c, labels, 0.01, 1.0))
                .isCloseTo(trace.get(trace.size() - 1), within(1e-12));
        assertThat(OtTestData.maxAbsDiff(OtTestData.rowSums(r.plan()), w)).isLessThan(1e-8);
        assertThat(OtTestData.maxAbsDiff(OtTestData.colSums(r.plan()), w)).isLessThan(1e-8);
        assertThat(r.marginalError()).isLessThan(1e-8);
        assertThat(r.transportCost()).isCloseTo(SinkhornTest.cost(r.plan(), c), within(1e-14));
        assertThat(c.minus(cCopy).maxAbs()).as("cost untouched").isZero();
    }

    @Test
    void publicIteratesAreMonotoneToo() {
        int[] labels = new int[2 * PER_CLASS];
        DenseMatrix c = blobCost(labels);
        double[] w = CostMatrices.uniform(2 * PER_CLASS);
        double previous = Double.POSITIVE_INFINITY;
        for (int outer = 0; outer <= 6; outer++) {
            Coupling r = GroupLassoOt.solve(w, w, c, labels, 0.01, 0.1, outer, INNER);
            double f = GroupLassoOt.objective(r.plan(), c, labels, 0.01, 0.1);
            assertThat(f).as("outer=%d", outer).isLessThanOrEqualTo(previous + 1e-12);
            previous = f;
        }
    }

    @Test
    void largeGroupWeightMakesTargetColumnsClassPure() {
        int[] labels = new int[2 * PER_CLASS];
        DenseMatrix c = blobCost(labels);
        double[] w = CostMatrices.uniform(2 * PER_CLASS);
        Coupling plain = Sinkhorn.solve(w, w, c, 0.01, INNER);
        // regGroup = 100 x regEntropic = the largest cost; GCG needs more than 10 steps when regGroup >> regEntropic
        Coupling grouped = GroupLassoOt.solve(w, w, c, labels, 0.01, 1.0, 150, INNER);
        double[] before = columnPurity(plain.plan(), labels);
        double[] after = columnPurity(grouped.plan(), labels);
        int pure = 0;
        for (double p : after) {
            if (p >= 0.9) {
                pure++;
            }
        }
        assertThat(mean(after)).isGreaterThan(0.95).isGreaterThan(mean(before) + 0.04);
        assertThat(pure).as("columns with >= 90%% of their mass from one class").isGreaterThanOrEqualTo(27);
        assertThat(grouped.marginalError()).isLessThan(1e-8);
    }

    @Test
    void convergedPlanIsOptimalAgainstFeasiblePerturbations() {
        int[] labels = new int[2 * PER_CLASS];
        DenseMatrix c = blobCost(labels);
        double[] w = CostMatrices.uniform(2 * PER_CLASS);
        Coupling r = GroupLassoOt.solve(w, w, c, labels, 0.02, 0.2, 500, SinkhornOptions.defaults().withMaxIterations(20_000));
        assertThat(r.converged()).isTrue();
        double f = GroupLassoOt.objective(r.plan(), c, labels, 0.02, 0.2);
        SplittableRandom rng = new SplittableRandom(5);
        int n = 2 * PER_CLASS;
        int tried = 0;
        double smallestGain = Double.POSITIVE_INFINITY;
        while (tried < 200) {
            // move mass around a 2x2 cycle through entries that carry mass: the marginals are unchanged
            int i = rng.nextInt(n);
            int k = rng.nextInt(n);
            int j = rng.nextInt(n);
            int l = rng.nextInt(n);
            DenseMatrix p = r.plan().copy();
            double eps = 0.1 * Math.min(p.get(i, l), p.get(k, j));
            if (i == k || j == l || eps < 1e-6) {
                continue;
            }
            tried++;
            p.add(i, j, eps);
            p.add(k, l, eps);
            p.add(i, l, -eps);
            p.add(k, j, -eps);
            smallestGain = Math.min(smallestGain, GroupLassoOt.objective(p, c, labels, 0.02, 0.2) - f);
        }
        assertThat(smallestGain).isGreaterThan(0.0);
    }

    @Test
    void zeroGroupWeightReturnsTheEntropicPlan() {
        SplittableRandom rng = new SplittableRandom(6);
        DenseMatrix c = OtTestData.randomCost(9, 7, rng);
        double[] a = OtTestData.randomWeights(9, rng);
        double[] b = OtTestData.randomWeights(7, rng);
        int[] labels = {0, 1, 2, 0, 1, 2, 0, 1, 2};
        Coupling g = GroupLassoOt.solve(a, b, c, labels, 0.05, 0.0, 10, INNER);
        Coupling s = Sinkhorn.solve(a, b, c, 0.05, INNER);
        assertThat(g.plan().minus(s.plan()).maxAbs()).isLessThan(1e-9);
        assertThat(g.iterations()).isLessThanOrEqualTo(2);
        assertThat(g.converged()).isTrue();
    }

    @Test
    void objectiveMatchesHandComputation() {
        DenseMatrix plan = DenseMatrix.fromRows(new double[][] {{0.1, 0.2}, {0.3, 0.0}, {0.0, 0.4}});
        DenseMatrix c = DenseMatrix.fromRows(new double[][] {{1, 2}, {3, Double.POSITIVE_INFINITY}, {5, 6}});
        int[] labels = {0, 0, 1};
        double linear = 0.1 * 1 + 0.2 * 2 + 0.3 * 3 + 0.4 * 6;
        double entropy = 0;
        for (double x : new double[] {0.1, 0.2, 0.3, 0.4}) {
            entropy += x * (Math.log(x) - 1);
        }
        double group = Math.hypot(0.1, 0.3) + Math.hypot(0.2, 0.0) + 0.0 + 0.4;
        assertThat(GroupLassoOt.objective(plan, c, labels, 0.5, 2.0))
                .isCloseTo(linear + 0.5 * entropy + 2.0 * group, within(1e-14));
        DenseMatrix onInfinity = DenseMatrix.fromRows(new double[][] {{0.1, 0.2}, {0.2, 0.1}, {0.0, 0.4}});
        assertThat(GroupLassoOt.objective(onInfinity, c, labels, 0.5, 2.0)).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void maskedCostKeepsZeroMassAcrossLabels() {
        int[] labels = new int[2 * PER_CLASS];
        DenseMatrix c = blobCost(labels);
        int[] targetLabels = new int[2 * PER_CLASS];
        for (int j = 0; j < targetLabels.length; j++) {
            targetLabels[j] = j % 3 == 0 ? labels[j] : -1; // a third of the target labelled
        }
        DenseMatrix masked = CostMatrices.maskDifferentLabels(c, labels, targetLabels);
        double[] w = CostMatrices.uniform(2 * PER_CLASS);
        Coupling r = GroupLassoOt.solve(w, w, masked, labels, 0.01, 0.1, 10, INNER);
        for (int i = 0; i < masked.rows(); i++) {
            for (int j = 0; j < masked.cols(); j++) {
                if (masked.get(i, j) == Double.POSITIVE_INFINITY) {
                    assertThat(r.plan().get(i, j)).isEqualTo(0.0);
                }
            }
        }
        assertThat(Double.isFinite(GroupLassoOt.objective(r.plan(), masked, labels, 0.01, 0.1))).isTrue();
        assertThat(r.marginalError()).isLessThan(1e-8);
    }

    @Test
    void badInputsAreRejected() {
        DenseMatrix c = DenseMatrix.fromRows(new double[][] {{0, 1}, {1, 0}});
        double[] w = {0.5, 0.5};
        int[] labels = {0, 1};
        assertThatThrownBy(() -> GroupLassoOt.solve(w, w, c, new int[] {0}, 0.1, 0.1, 10, INNER))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("labels");
        assertThatThrownBy(() -> GroupLassoOt.solve(w, w, c, new int[] {0, -1}, 0.1, 0.1, 10, INNER))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GroupLassoOt.solve(w, w, c, labels, 0.0, 0.1, 10, INNER))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GroupLassoOt.solve(w, w, c, labels, 0.1, -0.1, 10, INNER))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GroupLassoOt.solve(w, w, c, labels, 0.1, 0.1, -1, INNER))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GroupLassoOt.solve(new double[] {0.5, 0.6}, w, c, labels, 0.1, 0.1, 10, INNER))
                .isInstanceOf(IllegalArgumentException.class);
        DenseMatrix negative = DenseMatrix.fromRows(new double[][] {{-0.1, 0.6}, {0.5, 0.0}});
        assertThatThrownBy(() -> GroupLassoOt.objective(negative, c, labels, 0.1, 0.1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GroupLassoOt.objective(DenseMatrix.zeros(2, 3), c, labels, 0.1, 0.1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
