package org.privadapt.models.uda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.Classifier;
import org.privadapt.models.Softmax;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;

/**
 * The refinements anchored to the received model ({@link PriorEm}, {@link MapPrototypes}, {@link Lame},
 * {@link ReceivedPosteriors}, {@link CentredRows}): invariants on generated data, fixed seeds, tolerances stated.
 */
class AnchoredRefinementTest {
    static final List<String> ABC = List.of("a", "b", "c");
    static final List<String> AB = List.of("a", "b");

    /** Three 1-d Gaussian classes N(-2, 1), N(0, 1), N(2, 1) drawn with prior {@code prior}; exact posteriors under a uniform prior. */
    record Shift(int[] y, DenseMatrix proba) {
    }

    static Shift shift(double[] prior, int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] mu = {-2, 0, 2};
        int[] y = new int[n];
        DenseMatrix p = DenseMatrix.zeros(n, 3);
        for (int i = 0; i < n; i++) {
            double u = r.nextDouble();
            int c = u < prior[0] ? 0 : u < prior[0] + prior[1] ? 1 : 2;
            y[i] = c;
            double x = mu[c] + r.nextGaussian();
            for (int k = 0; k < 3; k++) {
                p.set(i, k, -0.5 * (x - mu[k]) * (x - mu[k]));
            }
        }
        return new Shift(y, Softmax.inPlace(p));
    }

    @Test
    void priorEmRecoversAKnownTargetPrior() {
        double[] truth = {0.6, 0.3, 0.1};
        Shift s = shift(truth, 20000, 1);
        PriorEm.Result r = PriorEm.estimate(s.proba(), PriorEm.uniform(3));
        assertThat(r.converged()).isTrue();
        for (int c = 0; c < 3; c++) {
            assertThat(r.prior()[c]).as("class %d", c).isCloseTo(truth[c], within(0.02)); // sampling sd ~0.005
        }
        // the adjusted posteriors are Bayes' under the true prior: accuracy up, never down
        Classifier base = new FixedProba(s.proba(), ABC);
        Classifier adjusted = ReceivedPosteriors.shifted(base, r.logRatio());
        FeatureMatrix dummy = DenseMatrix.zeros(s.y().length, 1);
        assertThat(accuracy(adjusted.predict(dummy), s.y())).isGreaterThan(accuracy(base.predict(dummy), s.y()) + 0.02);
    }

    @Test
    void priorEmLeavesABalancedTargetUnchanged() {
        Shift s = shift(new double[] {1 / 3.0, 1 / 3.0, 1 / 3.0}, 20000, 2);
        PriorEm.Result r = PriorEm.estimate(s.proba(), PriorEm.uniform(3));
        for (int c = 0; c < 3; c++) {
            assertThat(r.prior()[c]).isCloseTo(1 / 3.0, within(0.02));
        }
        Classifier base = new FixedProba(s.proba(), ABC);
        FeatureMatrix dummy = DenseMatrix.zeros(s.y().length, 1);
        int[] a = base.predict(dummy);
        int[] b = ReceivedPosteriors.shifted(base, r.logRatio()).predict(dummy);
        assertThat(1 - accuracy(a, b)).as("share of rows relabelled").isLessThan(0.03);
    }

    @Test
    void priorEmWeightPullsTowardsTheSourcePrior() {
        double[] truth = {0.6, 0.3, 0.1};
        Shift s = shift(truth, 20000, 1);
        double[] u = PriorEm.uniform(3);
        PriorEm.Result plain = PriorEm.estimate(s.proba(), u);
        PriorEm.Result zero = PriorEm.estimate(s.proba(), u, 0.1 / 3, 100, 1e-6, 0.0);
        assertThat(zero.prior()).isEqualTo(plain.prior());
        // weight 1: the source prior counts as n rows, so the fixed point is about halfway (within 0.03)
        PriorEm.Result half = PriorEm.estimate(s.proba(), u, 0.1 / 3, 100, 1e-6, 1.0);
        for (int c = 0; c < 3; c++) {
            assertThat(half.prior()[c]).isCloseTo((truth[c] + 1 / 3.0) / 2, within(0.03));
        }
        PriorEm.Result heavy = PriorEm.estimate(s.proba(), u, 0.1 / 3, 100, 1e-6, 1e6);
        for (int c = 0; c < 3; c++) {
            assertThat(heavy.prior()[c]).isCloseTo(1 / 3.0, within(1e-5));
        }
    }

    @Test
    void priorEmFloorKeepsEveryClass() {
        // every row certain of class 0: unguarded EM would run the other priors to 0
        DenseMatrix p = DenseMatrix.zeros(100, 3);
        for (int i = 0; i < 100; i++) {
            p.set(i, 0, 1.0);
        }
        PriorEm.Result r = PriorEm.estimate(p, PriorEm.uniform(3));
        assertThat(r.prior()[1]).isCloseTo(0.1 / 3, within(1e-12));
        assertThat(r.prior()[2]).isCloseTo(0.1 / 3, within(1e-12));
        assertThat(r.prior()[0] + r.prior()[1] + r.prior()[2]).isCloseTo(1.0, within(1e-12));
        assertThat(r.iterations()).isLessThanOrEqualTo(PriorEm.DEFAULT_MAX_ITERATIONS);
    }

    @Test
    void mapPrototypesWithoutTargetEvidenceReturnsTheSource() {
        TargetRefinementTest.Sample s = TargetRefinementTest.clusters(3, 5, 1.0, 60, 3);
        DenseMatrix src = TargetRefinement.normalisedColumns(randomDirections(5, 3, 4));
        MapPrototypes.Result r = MapPrototypes.refine(s.x(), src, Double.POSITIVE_INFINITY, 2.0, 10);
        assertThat(r.directions().minus(src).maxAbs()).isLessThan(1e-12);
        // a huge finite relevance is the same within its weight n_k / r
        MapPrototypes.Result big = MapPrototypes.refine(s.x(), src, 1e12, 2.0, 10);
        assertThat(big.directions().minus(src).maxAbs()).isLessThan(1e-6);
    }

    @Test
    void mapPrototypesWithZeroRelevanceIsSphericalKMeans() {
        TargetRefinementTest.Sample s = TargetRefinementTest.clusters(3, 5, 1.5, 60, 5);
        DenseMatrix src = TargetRefinement.normalisedColumns(randomDirections(5, 3, 6));
        Network received = Network.fromParameters(new int[] {5, 3}, Activation.IDENTITY, List.of(src), List.of(new double[3]), ABC);
        for (int iterations : new int[] {1, 2, 30}) {
            // map's update t reassigns under the prototypes of update t - 1 (the first: the received model's predictions)
            Network km = TargetRefinement.centroids(received, s.x(), iterations - 1);
            MapPrototypes.Result map = MapPrototypes.refine(s.x(), src, 0.0, Double.POSITIVE_INFINITY, iterations);
            assertThat(map.directions().minus(km.weights(0)).maxAbs()).as("%d iterations", iterations).isLessThan(1e-9);
        }
    }

    @Test
    void lameWithoutAffinityReturnsTheReceivedProbabilities() {
        Shift s = shift(new double[] {0.5, 0.3, 0.2}, 300, 7);
        int[][] none = new int[300][0];
        assertThat(Lame.smooth(s.proba(), none).z().minus(s.proba()).maxAbs()).isEqualTo(0.0);
        DenseMatrix x = TargetRefinementTest.clusters(3, 4, 1.0, 100, 8).x();
        assertThat(Lame.neighbours(x, 0)[0]).isEmpty();
        Lame.Smoothed k0 = new Lame.Smoothed(new FixedProba(s.proba(), ABC), 0);
        assertThat(k0.predictProba(x).minus(s.proba()).maxAbs()).isEqualTo(0.0);
    }

    @Test
    void lameSmoothsNoisyPredictionsTowardsTheirNeighbours() {
        TargetRefinementTest.Sample s = TargetRefinementTest.clusters(3, 6, 0.8, 100, 9);
        SplittableRandom r = new SplittableRandom(10);
        DenseMatrix p = DenseMatrix.zeros(300, 3); // right with probability ~0.6, mildly confident
        for (int i = 0; i < 300; i++) {
            int c = r.nextDouble() < 0.6 ? s.y()[i] : r.nextInt(3);
            for (int k = 0; k < 3; k++) {
                p.set(i, k, k == c ? 0.6 : 0.2);
            }
        }
        double before = accuracy(Softmax.argmaxRows(p), s.y());
        Lame.Result res = Lame.smooth(p, Lame.neighbours(s.x(), 5));
        double after = accuracy(Softmax.argmaxRows(res.z()), s.y());
        assertThat(after).isGreaterThan(before + 0.1);
        assertThat(res.iterations()).isBetween(1, Lame.MAX_ITERATIONS);
    }

    @Test
    void blockwiseNeighboursMatchBruteForceOnSparseWideRows() {
        // d = 152,543 (ecml2006-spam-taskb's width): blocks of 27 rows, so 70 rows take three blocks
        int n = 70;
        int d = 152_543;
        CsrMatrix x = sparse(n, d, 40, 11);
        int[][] nb = Lame.neighbours(x, 5);
        FeatureMatrix unit = TargetRefinement.unitRows(x);
        for (int i = 0; i < n; i++) {
            double[] cos = new double[n];
            double[] ri = unit.row(i);
            for (int j = 0; j < n; j++) {
                double[] rj = unit.row(j);
                for (int t = 0; t < d; t++) {
                    cos[j] += ri[t] * rj[t];
                }
            }
            cos[i] = Double.NEGATIVE_INFINITY;
            for (int q = 0; q < 5; q++) {
                int best = 0;
                for (int j = 1; j < n; j++) {
                    if (cos[j] > cos[best]) {
                        best = j;
                    }
                }
                assertThat(cos(unit, i, nb[i][q])).as("row %d, neighbour %d", i, q).isCloseTo(cos[best], within(1e-12));
                cos[best] = Double.NEGATIVE_INFINITY;
            }
        }
        // centred without densifying: the same neighbours as the dense centred rows
        CentredRows c = CentredRows.onOwnMean(x.selectColumns(range(300)));
        DenseMatrix dense = c.toDense();
        assertThat(Lame.neighbours(c, 4)).isDeepEqualTo(Lame.neighbours(dense, 4));
        assertThat(c.multiply(DenseMatrix.zeros(300, 2).plusRowVector(new double[] {1, -1})).minus(
                dense.multiply(DenseMatrix.zeros(300, 2).plusRowVector(new double[] {1, -1}))).maxAbs()).isLessThan(1e-9);
    }

    /** Two structures: classes along axis 0 (means +-1, sd 0.6), clusters along axis 1 (+-strength, sd 0.5, independent of the class). */
    record TwoStructures(DenseMatrix x, int[] y) {
        static TwoStructures of(int n, double strength, long seed) {
            SplittableRandom r = new SplittableRandom(seed);
            DenseMatrix x = DenseMatrix.zeros(n, 3);
            int[] y = new int[n];
            for (int i = 0; i < n; i++) {
                y[i] = i % 2;
                x.set(i, 0, (y[i] == 0 ? -1 : 1) + 0.6 * r.nextGaussian());
                x.set(i, 1, (r.nextBoolean() ? strength : -strength) + 0.5 * r.nextGaussian());
                x.set(i, 2, 0.3 * r.nextGaussian());
            }
            return new TwoStructures(x, y);
        }
    }

    /** A received prototype model: the class axis, tilted by {@code tilt} towards the cluster axis (a noisy release). */
    static Network tilted(double tilt) {
        DenseMatrix w = TargetRefinement.normalisedColumns(DenseMatrix.fromRows(new double[][] {{-1, 1}, {tilt, -tilt}, {0, 0}}));
        return Network.fromParameters(new int[] {3, 2}, Activation.IDENTITY, List.of(w), List.of(new double[2]), AB);
    }

    /**
     * On {@link TwoStructures} with clusters twice as far apart as the classes, from a received model tilted by 0.1:
     * spherical k-means from its predictions moves to the clusters on most seeds (the feedback of re-assignment
     * amplifies the tilt), while the MAP prototypes (default: one update, relevance n / K: the source direction counts
     * as many rows as a target class) stays within 3 points of the received accuracy on every seed (it re-estimates the
     * means, so a few rows near the boundary move; a flip would cost ~45) and prior EM within 2.
     */
    @Test
    void anchoredRefinementsDoNotFlipToTheStrongerStructure() {
        int n = 600;
        int flipped = 0;
        for (long seed = 12; seed < 17; seed++) {
            TwoStructures t = TwoStructures.of(n, 2.0, seed);
            Network received = tilted(0.1);
            double base = accuracy(received.predict(t.x()), t.y());
            double km = accuracy(TargetRefinement.centroids(received, t.x(), 10).predict(t.x()), t.y());
            flipped += Math.max(km, 1 - km) < 0.6 ? 1 : 0; // k-means labelled the clusters
            Classifier prob = ReceivedPosteriors.probabilistic(received, t.x(), ReceivedPosteriors.DEFAULT_LOGIT_SD);
            double beta = ((ReceivedPosteriors.CosineSoftmax) prob).beta();
            DenseMatrix w = received.weights(0);
            double map = accuracy(MapPrototypes.refine(t.x(), w, n / 2.0, beta, MapPrototypes.DEFAULT_ITERATIONS).model(AB)
                    .predict(t.x()), t.y());
            PriorEm.Result em = PriorEm.estimate(prob.predictProba(t.x()), PriorEm.uniform(2));
            double prior = accuracy(ReceivedPosteriors.shifted(prob, em.logRatio()).predict(t.x()), t.y());
            assertThat(base).as("received, seed %d", seed).isGreaterThan(0.9);
            assertThat(map).as("map-prototypes, seed %d", seed).isGreaterThan(base - 0.03);
            assertThat(prior).as("prior-em, seed %d", seed).isGreaterThan(base - 0.02);
        }
        assertThat(flipped).as("seeds on which k-means moved to the clusters").isEqualTo(5);
    }

    /**
     * The limit of the anchor, stated rather than hidden: iterated ten times at relevance n / K, with clusters three
     * times as far apart as the classes, the MAP prototypes follow the clusters too (the target's rows are strong
     * evidence for them); a stronger prior (relevance n) holds within 5 points. Prior EM, which only re-weights the
     * classes, does not move to them.
     */
    @Test
    void strongEnoughEvidenceMovesIteratedMapPrototypes() {
        int n = 600;
        TwoStructures t = TwoStructures.of(n, 3.0, 12);
        Network received = tilted(0.1);
        double base = accuracy(received.predict(t.x()), t.y());
        Classifier prob = ReceivedPosteriors.probabilistic(received, t.x(), ReceivedPosteriors.DEFAULT_LOGIT_SD);
        double beta = ((ReceivedPosteriors.CosineSoftmax) prob).beta();
        DenseMatrix w = received.weights(0);
        double weak = accuracy(MapPrototypes.refine(t.x(), w, n / 2.0, beta, 10).model(AB).predict(t.x()), t.y());
        double strong = accuracy(MapPrototypes.refine(t.x(), w, n, beta, 10).model(AB).predict(t.x()), t.y());
        PriorEm.Result em = PriorEm.estimate(prob.predictProba(t.x()), PriorEm.uniform(2));
        double prior = accuracy(ReceivedPosteriors.shifted(prob, em.logRatio()).predict(t.x()), t.y());
        assertThat(Math.max(weak, 1 - weak)).as("relevance n / K, 10 updates").isLessThan(0.6);
        assertThat(strong).as("relevance n, 10 updates").isGreaterThan(base - 0.05);
        assertThat(prior).as("prior-em").isGreaterThan(base - 0.02);
    }

    @Test
    void prototypeModelsAreRecognisedAndCalibrated() {
        DenseMatrix w = TargetRefinement.normalisedColumns(randomDirections(4, 3, 13));
        Network proto = Network.fromParameters(new int[] {4, 3}, Activation.IDENTITY, List.of(w), List.of(new double[3]), ABC);
        Network biased = Network.fromParameters(new int[] {4, 3}, Activation.IDENTITY, List.of(w), List.of(new double[] {0, 1, 0}), ABC);
        assertThat(ReceivedPosteriors.isPrototypeModel(proto)).isTrue();
        assertThat(ReceivedPosteriors.isPrototypeModel(biased)).isFalse();
        DenseMatrix x = TargetRefinementTest.clusters(3, 4, 1.0, 50, 14).x();
        Classifier p = ReceivedPosteriors.probabilistic(proto, x, 3.0);
        assertThat(p.predict(x)).isEqualTo(proto.predict(x)); // the same argmax (cosine vs dot: same ranking per row)
        // its logits have sd 3 on the target (row-centred)
        DenseMatrix logits = ReceivedPosteriors.cosines(x, w).scale(((ReceivedPosteriors.CosineSoftmax) p).beta());
        assertThat(ReceivedPosteriors.inverseTemperature(logits, 1.0)).isCloseTo(1.0 / 3.0, within(1e-9));
        assertThat(ReceivedPosteriors.probabilistic(biased, x, 3.0)).isSameAs(biased);
    }

    // --- helpers ---

    /** A classifier returning fixed probabilities whatever the rows (for the EM tests). */
    record FixedProba(DenseMatrix p, List<String> classNames) implements Classifier {
        @Override
        public int dimension() {
            return 1;
        }

        @Override
        public DenseMatrix predictProba(FeatureMatrix x) {
            return p.copy();
        }
    }

    static DenseMatrix randomDirections(int d, int k, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix m = DenseMatrix.zeros(d, k);
        for (int j = 0; j < d; j++) {
            for (int c = 0; c < k; c++) {
                m.set(j, c, r.nextGaussian());
            }
        }
        return m;
    }

    static CsrMatrix sparse(int n, int d, int perRow, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] start = new int[n + 1];
        List<Integer> cols = new ArrayList<>();
        List<Double> vals = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            java.util.TreeSet<Integer> js = new java.util.TreeSet<>();
            while (js.size() < perRow) {
                // a shared vocabulary of 300 words, so rows overlap
                js.add(r.nextDouble() < 0.7 ? r.nextInt(300) : r.nextInt(d));
            }
            for (int j : js) {
                cols.add(j);
                vals.add(1.0 + r.nextInt(3));
            }
            start[i + 1] = cols.size();
        }
        return new CsrMatrix(n, d, start, cols.stream().mapToInt(Integer::intValue).toArray(),
                vals.stream().mapToDouble(Double::doubleValue).toArray());
    }

    static int[] range(int m) {
        int[] idx = new int[m];
        for (int j = 0; j < m; j++) {
            idx[j] = j;
        }
        return idx;
    }

    static double cos(FeatureMatrix unit, int i, int j) {
        double[] a = unit.row(i);
        double[] b = unit.row(j);
        double s = 0;
        for (int t = 0; t < a.length; t++) {
            s += a[t] * b[t];
        }
        return s;
    }

    static double accuracy(int[] pred, int[] y) {
        int ok = 0;
        for (int i = 0; i < y.length; i++) {
            ok += pred[i] == y[i] ? 1 : 0;
        }
        return (double) ok / y.length;
    }
}
