package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;

/**
 * {@link ClassStatistics}: the exact statistics, their sensitivities, the per-block Gaussian release and the two
 * classifiers built from a release. Statistical checks use fixed seeds and state their tolerances.
 */
class ClassStatisticsTest {
    static final List<String> ABC = List.of("a", "b", "c");

    static double gauss(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    // ---------------------------------------------------------------------------------------------- exact statistics

    /** Three rows in R^2, classes 0, 1, 0 of three (class 2 holds no row). */
    static final double[][] TINY = {{1, 2}, {3, -1}, {0, 1}};
    static final int[] TINY_Y = {0, 1, 0};

    @Test
    void exactStatisticsMatchAHandComputation() {
        for (FeatureMatrix x : new FeatureMatrix[] {DenseMatrix.fromRows(TINY), CsrMatrix.fromDense(DenseMatrix.fromRows(TINY))}) {
            ClassStatistics s = ClassStatistics.of(x, TINY_Y, 3, true);
            assertThat(s.classes()).isEqualTo(3);
            assertThat(s.dimension()).isEqualTo(2);
            assertThat(s.counts()).containsExactly(2, 1, 0);
            // S_0 = (1,2) + (0,1), S_1 = (3,-1), S_2 = 0
            DenseMatrix sums = s.sums();
            assertThat(sums.rows()).isEqualTo(3);
            assertThat(sums.cols()).isEqualTo(2);
            assertThat(sums.row(0)).containsExactly(new double[] {1, 3}, within(1e-12));
            assertThat(sums.row(1)).containsExactly(new double[] {3, -1}, within(1e-12));
            assertThat(sums.row(2)).containsExactly(new double[] {0, 0}, within(1e-12));
            // M = sum x x^T = [[1 + 9 + 0, 2 - 3 + 0], [., 4 + 1 + 1]]
            DenseMatrix m = s.moment();
            assertThat(m.get(0, 0)).isCloseTo(10, within(1e-12));
            assertThat(m.get(0, 1)).isCloseTo(-1, within(1e-12));
            assertThat(m.get(1, 0)).isCloseTo(-1, within(1e-12));
            assertThat(m.get(1, 1)).isCloseTo(6, within(1e-12));
            assertThat(ClassStatistics.of(x, TINY_Y, 3, false).moment()).isNull();
        }
    }

    @Test
    void accessorsReturnCopies() {
        ClassStatistics s = ClassStatistics.of(DenseMatrix.fromRows(TINY), TINY_Y, 3, true);
        s.counts()[0] = 99;
        s.sums().data()[0] = 99;
        s.moment().data()[0] = 99;
        assertThat(s.counts()[0]).isEqualTo(2);
        assertThat(s.sums().get(0, 0)).isEqualTo(1);
        assertThat(s.moment().get(0, 0)).isEqualTo(10);
    }

    @Test
    void refusesLabelsOutsideTheClassesAndMismatchedLengths() {
        DenseMatrix x = DenseMatrix.fromRows(TINY);
        assertThatThrownBy(() -> ClassStatistics.of(x, new int[] {0, 3, 0}, 3, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("label 3");
        assertThatThrownBy(() -> ClassStatistics.of(x, new int[] {0, -1, 0}, 3, false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClassStatistics.of(x, new int[] {0, 1}, 3, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 rows but 2 labels");
    }

    // ---------------------------------------------------------------------------------------------- sensitivities

    @Test
    void sensitivitiesForBothRelations() {
        double r = 2.5;
        ClassStatistics.Sensitivities ar = ClassStatistics.sensitivities(NeighbouringRelation.ADD_OR_REMOVE_ONE, r);
        assertThat(ar.count()).isEqualTo(1.0);
        assertThat(ar.sum()).isCloseTo(r, within(1e-15));
        assertThat(ar.moment()).isCloseTo(r * r, within(1e-12));
        ClassStatistics.Sensitivities rep = ClassStatistics.sensitivities(NeighbouringRelation.REPLACE_ONE, r);
        assertThat(rep.count()).isCloseTo(Math.sqrt(2), within(1e-15));
        assertThat(rep.sum()).isCloseTo(2 * r, within(1e-15));
        assertThat(rep.moment()).isCloseTo(Math.sqrt(2) * r * r, within(1e-12));
        for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> ClassStatistics.sensitivities(NeighbouringRelation.ADD_OR_REMOVE_ONE, bad))
                    .as("R = %s", bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    // ---------------------------------------------------------------------------------------------- the release

    /** 30 rows in R^4 with three classes, clipped to R = 2. */
    static ClassStatistics medium(boolean withMoment) {
        SplittableRandom r = new SplittableRandom(3);
        DenseMatrix x = DenseMatrix.zeros(30, 4);
        int[] y = new int[30];
        for (int i = 0; i < 30; i++) {
            y[i] = i % 3;
            for (int j = 0; j < 4; j++) {
                x.set(i, j, gauss(r) + (j == y[i] ? 1 : 0));
            }
        }
        return ClassStatistics.of(ClassStatistics.clipRows(x, 2.0), y, 3, withMoment);
    }

    @Test
    void withNoiseAddsTheDeclaredStdToEachBlock() {
        ClassStatistics exact = medium(true);
        ClassStatistics.Sensitivities delta = ClassStatistics.sensitivities(NeighbouringRelation.ADD_OR_REMOVE_ONE, 2.0); // 1, 2, 4
        double sCount = 0.5;
        double sSum = 2.0;
        double sMoment = 3.0; // stds 0.5, 4, 12 (off-diagonal moment entries 12 / sqrt 2)
        // the calls: one per block, with the declared sigma and the block's length (the moment's upper triangle)
        RecordingNoise rec = new RecordingNoise(1);
        exact.withNoise(sCount, sSum, sMoment, delta, rec);
        assertThat(rec.calls).hasSize(3);
        assertThat(rec.calls.get(0)).containsExactly(3, 0.5);
        assertThat(rec.calls.get(1)).containsExactly(12, 4.0);
        assertThat(rec.calls.get(2)).containsExactly(10, 12.0);
        // empirically: 4000 draws; pooled per block; relative tolerance 4 % (the standard error of a pooled std over
        // >= 12000 draws is below 0.7 %), means within 4 standard errors of 0
        SeededRandomness rnd = new SeededRandomness(11);
        int draws = 4000;
        double[][] acc = new double[4][3]; // block: counts, sums, moment diagonal, moment off-diagonal; {sum, sumsq, n}
        double[] counts = exact.counts();
        DenseMatrix sums = exact.sums();
        DenseMatrix m = exact.moment();
        for (int t = 0; t < draws; t++) {
            ClassStatistics noisy = exact.withNoise(sCount, sSum, sMoment, delta, rnd);
            double[] c = noisy.counts();
            for (int i = 0; i < c.length; i++) {
                add(acc[0], c[i] - counts[i]);
            }
            double[] s = noisy.sums().data();
            for (int i = 0; i < s.length; i++) {
                add(acc[1], s[i] - sums.data()[i]);
            }
            DenseMatrix nm = noisy.moment();
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 4; j++) {
                    assertThat(nm.get(i, j)).isEqualTo(nm.get(j, i)); // symmetric, exactly
                    if (i == j) {
                        add(acc[2], nm.get(i, j) - m.get(i, j));
                    } else if (i < j) {
                        add(acc[3], nm.get(i, j) - m.get(i, j));
                    }
                }
            }
        }
        double[] expected = {0.5, 4.0, 12.0, 12.0 / Math.sqrt(2)};
        String[] names = {"counts", "sums", "moment diagonal", "moment off-diagonal"};
        for (int b = 0; b < 4; b++) {
            double n = acc[b][2];
            double mean = acc[b][0] / n;
            double std = Math.sqrt(acc[b][1] / n - mean * mean);
            assertThat(std / expected[b]).as("%s: empirical std / declared", names[b]).isCloseTo(1.0, within(0.04));
            assertThat(Math.abs(mean)).as("%s: mean of the noise", names[b]).isLessThan(4 * expected[b] / Math.sqrt(n));
        }
    }

    @Test
    void theReleaseIsTheExactStatisticsPlusTheRecordedNoise() {
        // replay: counts + noise 0, sums (column-major K x d) + noise 1, and the moment's upper triangle, column by
        // column from the diagonal, with the off-diagonal entries scaled by sqrt 2 before the noise and back after
        ClassStatistics exact = medium(true);
        RecordingNoise rec = new RecordingNoise(8);
        ClassStatistics noisy = exact.withNoise(0.7, 1.1, 1.9, ClassStatistics.sensitivities(NeighbouringRelation.REPLACE_ONE, 2.0), rec);
        double[] c = noisy.counts();
        for (int i = 0; i < 3; i++) {
            assertThat(c[i]).isCloseTo(exact.counts()[i] + rec.added.get(0)[i], within(1e-12));
        }
        double[] s = noisy.sums().data();
        for (int i = 0; i < s.length; i++) {
            assertThat(s[i]).isCloseTo(exact.sums().data()[i] + rec.added.get(1)[i], within(1e-12));
        }
        double[] tri = rec.added.get(2);
        DenseMatrix m = exact.moment();
        DenseMatrix nm = noisy.moment();
        int t = 0;
        for (int j = 0; j < 4; j++) {
            assertThat(nm.get(j, j)).isCloseTo(m.get(j, j) + tri[t++], within(1e-9));
            for (int i = j + 1; i < 4; i++) {
                assertThat(nm.get(i, j)).as("(%d, %d)", i, j).isCloseTo(m.get(i, j) + tri[t++] / Math.sqrt(2), within(1e-9));
            }
        }
        assertThat(t).isEqualTo(tri.length);
    }

    static void add(double[] acc, double v) {
        acc[0] += v;
        acc[1] += v * v;
        acc[2] += 1;
    }

    @Test
    void replaceOneScalesTheNoiseByItsSensitivities() {
        RecordingNoise rec = new RecordingNoise(2);
        medium(true).withNoise(1.0, 1.0, 1.0, ClassStatistics.sensitivities(NeighbouringRelation.REPLACE_ONE, 2.0), rec);
        assertThat(rec.calls.get(0)[1]).isCloseTo(Math.sqrt(2), within(1e-15));
        assertThat(rec.calls.get(1)[1]).isCloseTo(4.0, within(1e-15));
        assertThat(rec.calls.get(2)[1]).isCloseTo(4 * Math.sqrt(2), within(1e-12));
    }

    @Test
    void withheldBlocksAreNotNoisedAndNotReleased() {
        ClassStatistics exact = medium(true);
        ClassStatistics.Sensitivities delta = ClassStatistics.sensitivities(NeighbouringRelation.ADD_OR_REMOVE_ONE, 2.0);
        RecordingNoise rec = new RecordingNoise(3);
        ClassStatistics onlySums = exact.withNoise(Double.POSITIVE_INFINITY, 1.0, Double.POSITIVE_INFINITY, delta, rec);
        assertThat(rec.calls).hasSize(1);
        assertThat(rec.calls.get(0)).containsExactly(12, 2.0);
        assertThat(onlySums.counts()).hasSize(3);
        for (double c : onlySums.counts()) {
            assertThat(c).isNaN();
        }
        assertThat(onlySums.moment()).isNull();
        assertThat(onlySums.classes()).isEqualTo(3);
        assertThat(onlySums.dimension()).isEqualTo(4);
        // statistics without a moment release none, whatever its multiplier
        RecordingNoise rec2 = new RecordingNoise(3);
        ClassStatistics noMoment = medium(false).withNoise(1.0, 1.0, 1.0, delta, rec2);
        assertThat(noMoment.moment()).isNull();
        assertThat(rec2.calls).hasSize(2);
        for (double c : noMoment.counts()) {
            assertThat(c).isFinite();
        }
        // the sums are always released
        for (double bad : new double[] {Double.POSITIVE_INFINITY, 0, -1, Double.NaN}) {
            assertThatThrownBy(() -> exact.withNoise(1, bad, 1, delta, new RecordingNoise(4))).as("sSum = %s", bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void composedMultiplier() {
        assertThat(ClassStatistics.composedMultiplier(1, 1, 1)).isCloseTo(1 / Math.sqrt(3), within(1e-15));
        assertThat(ClassStatistics.composedMultiplier(Double.POSITIVE_INFINITY, 2, Double.POSITIVE_INFINITY)).isCloseTo(2, within(1e-15));
        assertThat(ClassStatistics.composedMultiplier(2, 2, Double.POSITIVE_INFINITY)).isCloseTo(Math.sqrt(2), within(1e-15));
        assertThat(ClassStatistics.composedMultiplier(1, 2, 3)).isCloseTo(1 / Math.sqrt(1 + 0.25 + 1.0 / 9), within(1e-15));
        // the LDA split of one multiplier s into shares of precision composes back to s
        double s = 1.7;
        assertThat(ClassStatistics.composedMultiplier(s / Math.sqrt(0.05), s / Math.sqrt(0.45), s / Math.sqrt(0.5))).isCloseTo(s, within(1e-12));
        for (double bad : new double[] {0, -1, Double.NaN}) {
            assertThatThrownBy(() -> ClassStatistics.composedMultiplier(1, bad, 1)).as("%s", bad).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> ClassStatistics.composedMultiplier(bad, 1, 1)).as("%s", bad).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> ClassStatistics.composedMultiplier(1, 1, bad)).as("%s", bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    // ---------------------------------------------------------------------------------------------- classifiers

    /** Labelled rows from isotropic Gaussians around the given centres. */
    record Sample(DenseMatrix x, int[] y) {
    }

    static Sample clusters(double[][] centres, double sd, int perClass, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int k = centres.length;
        int d = centres[0].length;
        DenseMatrix x = DenseMatrix.zeros(k * perClass, d);
        int[] y = new int[k * perClass];
        for (int i = 0; i < y.length; i++) {
            y[i] = i % k;
            for (int j = 0; j < d; j++) {
                x.set(i, j, centres[y[i]][j] + sd * gauss(r));
            }
        }
        return new Sample(x, y);
    }

    static double accuracy(int[] pred, int[] y) {
        int ok = 0;
        for (int i = 0; i < y.length; i++) {
            ok += pred[i] == y[i] ? 1 : 0;
        }
        return (double) ok / y.length;
    }

    static final double[][] CENTRES = {{3, 0, 0, 0, 0}, {0, 3, 0, 0, 0}, {0, 0, 3, 0, 1}};

    @Test
    void nearestClassMeanRecoversSeparatedClassesWithoutNoise() {
        Sample train = clusters(CENTRES, 0.5, 100, 1);
        Sample test = clusters(CENTRES, 0.5, 300, 2);
        ClassStatistics s = ClassStatistics.of(ClassStatistics.normaliseRows(train.x()), train.y(), 3, false);
        Network ncm = s.nearestClassMean(ABC);
        assertThat(ncm.layers()).isEqualTo(1);
        assertThat(ncm.classNames()).isEqualTo(ABC);
        assertThat(ncm.bias(0)).containsExactly(0, 0, 0);
        assertThat(accuracy(ncm.predict(test.x()), test.y())).isGreaterThan(0.99);
        // the columns are the unit mean directions
        for (int c = 0; c < 3; c++) {
            double[] w = ncm.weights(0).columnCopy(c);
            double n2 = 0;
            for (double v : w) {
                n2 += v * v;
            }
            assertThat(n2).isCloseTo(1.0, within(1e-12));
        }
    }

    @Test
    void nearestClassMeanIsRowNormInvariant() {
        Sample test = clusters(CENTRES, 1.5, 200, 4); // overlapping: many rows near the decision boundaries
        Sample train = clusters(CENTRES, 1.5, 50, 3);
        Network ncm = ClassStatistics.of(ClassStatistics.normaliseRows(train.x()), train.y(), 3, false)
                .withNoise(Double.POSITIVE_INFINITY, 0.3, Double.POSITIVE_INFINITY,
                        ClassStatistics.sensitivities(NeighbouringRelation.ADD_OR_REMOVE_ONE, 1.0), new SeededRandomness(5))
                .nearestClassMean(ABC);
        SplittableRandom r = new SplittableRandom(6);
        double[] f = new double[test.x().rows()];
        for (int i = 0; i < f.length; i++) {
            f[i] = Math.exp(r.nextDouble() * 12 - 6); // 0.0025 .. 400
        }
        assertThat(ncm.predict(test.x().scaleRows(f))).containsExactly(ncm.predict(test.x()));
        assertThat(ncm.predict(ClassStatistics.normaliseRows(test.x()))).containsExactly(ncm.predict(test.x()));
    }

    @Test
    void nearestClassMeanOfAClassWithoutRowsHasAZeroColumn() {
        Network ncm = ClassStatistics.of(DenseMatrix.fromRows(TINY), TINY_Y, 3, false).nearestClassMean(ABC);
        assertThat(ncm.weights(0).columnCopy(2)).containsExactly(0, 0);
        assertThat(ncm.weights(0).columnCopy(1)).containsExactly(new double[] {3 / Math.sqrt(10), -1 / Math.sqrt(10)}, within(1e-12));
    }

    /** A rotation of R^3 (orthonormal columns). */
    static final double[][] Q;

    static {
        double a = 0.6;
        double b = -0.4;
        double[][] rz = {{Math.cos(a), -Math.sin(a), 0}, {Math.sin(a), Math.cos(a), 0}, {0, 0, 1}};
        double[][] rx = {{1, 0, 0}, {0, Math.cos(b), -Math.sin(b)}, {0, Math.sin(b), Math.cos(b)}};
        Q = new double[3][3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                for (int t = 0; t < 3; t++) {
                    Q[i][j] += rz[i][t] * rx[t][j];
                }
            }
        }
    }

    @Test
    void ldaMatchesTheBayesRuleOnGaussianClassesWithASharedCovariance() {
        // Sigma = Q diag(l) Q^T, means and unequal priors; the Bayes rule is LDA with the true parameters
        double[] l = {4.0, 1.0, 0.25};
        double[][] mu = {{0, 0, 0}, {1.5, 0.5, 0}, {0, 1, -1}};
        double[] prior = {0.5, 0.3, 0.2};
        Sample train = gaussianClasses(mu, l, prior, 8000, 7);
        Sample test = gaussianClasses(mu, l, prior, 20000, 8);
        int[] bayes = bayes(test.x(), mu, l, prior);
        double bayesAcc = accuracy(bayes, test.y());
        assertThat(bayesAcc).isBetween(0.6, 0.95); // a problem where the rule matters
        ClassStatistics s = ClassStatistics.of(train.x(), train.y(), 3, true);
        Network lda = s.lda(ABC, 0.0, 1.0);
        int[] pred = lda.predict(test.x());
        double acc = accuracy(pred, test.y());
        // tolerance: 1 point of accuracy; and the two rules agree on >= 97 % of the test rows
        assertThat(acc).as("LDA %f, Bayes %f", acc, bayesAcc).isCloseTo(bayesAcc, within(0.01));
        assertThat(accuracy(pred, bayes)).isGreaterThan(0.97);
        // a nearest-mean rule that ignores the covariance is clearly worse here (so the check above can fail)
        int[] naive = bayes(test.x(), mu, new double[] {1, 1, 1}, new double[] {1, 1, 1});
        assertThat(accuracy(naive, test.y())).isLessThan(bayesAcc - 0.03);
        // with a little noise on every block (scale of the data: n = 8000) and shrinkage it stays close
        Network noisy = s.withNoise(1.0, 1.0, 1.0, ClassStatistics.sensitivities(NeighbouringRelation.ADD_OR_REMOVE_ONE, 10), new SeededRandomness(9))
                .lda(ABC, 0.1, 1.0);
        assertThat(accuracy(noisy.predict(test.x()), test.y())).isGreaterThan(bayesAcc - 0.03);
    }

    static Sample gaussianClasses(double[][] mu, double[] l, double[] prior, int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(n, 3);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            double u = r.nextDouble();
            int c = u < prior[0] ? 0 : u < prior[0] + prior[1] ? 1 : 2;
            y[i] = c;
            double[] z = new double[3];
            for (int j = 0; j < 3; j++) {
                z[j] = Math.sqrt(l[j]) * gauss(r);
            }
            for (int a = 0; a < 3; a++) {
                double v = mu[c][a];
                for (int j = 0; j < 3; j++) {
                    v += Q[a][j] * z[j];
                }
                x.set(i, a, v);
            }
        }
        return new Sample(x, y);
    }

    /** argmax_c x^T S^-1 mu_c - mu_c^T S^-1 mu_c / 2 + log pi_c, S = Q diag(l) Q^T. */
    static int[] bayes(DenseMatrix x, double[][] mu, double[] l, double[] prior) {
        int k = mu.length;
        double[][] w = new double[k][3]; // S^-1 mu_c
        double[] b = new double[k];
        for (int c = 0; c < k; c++) {
            for (int a = 0; a < 3; a++) {
                for (int j = 0; j < 3; j++) {
                    double qtmu = 0;
                    for (int t = 0; t < 3; t++) {
                        qtmu += Q[t][j] * mu[c][t];
                    }
                    w[c][a] += Q[a][j] * qtmu / l[j];
                }
            }
            for (int a = 0; a < 3; a++) {
                b[c] -= 0.5 * mu[c][a] * w[c][a];
            }
            b[c] += Math.log(prior[c]);
        }
        int[] out = new int[x.rows()];
        for (int i = 0; i < x.rows(); i++) {
            double best = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < k; c++) {
                double v = b[c];
                for (int a = 0; a < 3; a++) {
                    v += x.get(i, a) * w[c][a];
                }
                if (v > best) {
                    best = v;
                    out[i] = c;
                }
            }
        }
        return out;
    }

    @Test
    void ldaRefusesAReleaseWithoutMomentOrCounts() {
        ClassStatistics.Sensitivities delta = ClassStatistics.sensitivities(NeighbouringRelation.ADD_OR_REMOVE_ONE, 2.0);
        assertThatThrownBy(() -> medium(false).lda(ABC, 0.5, 1.0))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("second moment");
        ClassStatistics noMoment = medium(true).withNoise(1, 1, Double.POSITIVE_INFINITY, delta, new SeededRandomness(1));
        assertThatThrownBy(() -> noMoment.lda(ABC, 0.5, 1.0)).isInstanceOf(IllegalStateException.class);
        ClassStatistics noCounts = medium(true).withNoise(Double.POSITIVE_INFINITY, 1, 1, delta, new SeededRandomness(1));
        assertThatThrownBy(() -> noCounts.lda(ABC, 0.5, 1.0)).isInstanceOf(IllegalStateException.class);
        for (double bad : new double[] {-0.1, 1.1, Double.NaN}) {
            assertThatThrownBy(() -> medium(true).lda(ABC, bad, 1.0)).as("alpha %s", bad).isInstanceOf(IllegalArgumentException.class);
        }
        // a complete release is accepted, also with heavy noise (PSD flooring, count floor)
        Network m = medium(true).withNoise(1, 1, 1, delta, new SeededRandomness(1)).lda(ABC, 0.5, 1.0);
        for (double v : m.weights(0).data()) {
            assertThat(v).isFinite();
        }
        for (double v : m.bias(0)) {
            assertThat(v).isFinite();
        }
    }

    // ---------------------------------------------------------------------------------------------- row maps

    @Test
    void clipRowsAndNormaliseRows() {
        DenseMatrix x = DenseMatrix.fromRows(new double[][] {{3, 4}, {0.3, 0.4}, {0, 0}, {-6, 8}});
        DenseMatrix inside = DenseMatrix.fromRows(new double[][] {{0.3, 0.4}, {0, 0}});
        assertThat(ClassStatistics.clipRows(inside, 1.0)).isSameAs(inside);
        FeatureMatrix c = ClassStatistics.clipRows(x, 2.0);
        assertThat(c.row(0)).containsExactly(new double[] {1.2, 1.6}, within(1e-11)); // norm 5 -> 2, same direction
        assertThat(c.row(1)).containsExactly(0.3, 0.4);
        assertThat(c.row(2)).containsExactly(0, 0);
        assertThat(c.row(3)).containsExactly(new double[] {-1.2, 1.6}, within(1e-11));
        FeatureMatrix u = ClassStatistics.normaliseRows(x);
        assertThat(u.row(0)).containsExactly(new double[] {0.6, 0.8}, within(1e-11));
        assertThat(u.row(1)).containsExactly(new double[] {0.6, 0.8}, within(1e-11));
        assertThat(u.row(2)).containsExactly(0, 0);
        assertThat(u.row(3)).containsExactly(new double[] {-0.6, 0.8}, within(1e-11));
        // scaled rows land strictly inside the bound (rounding cannot push them past it); rows with a non-finite norm
        // become zero
        DenseMatrix many = DenseMatrix.fromRows(new double[][] {{1e8, 3e7, -2e7}, {0.1, 0.7, 0.3}, {1e200, 1e200, 1e200},
            {Double.NaN, 0, 1}});
        FeatureMatrix cm = ClassStatistics.clipRows(many, 1.0);
        FeatureMatrix um = ClassStatistics.normaliseRows(many);
        for (int i = 0; i < 2; i++) {
            assertThat(cm.rowSquaredNorms()[i]).isLessThanOrEqualTo(1.0);
            assertThat(um.rowSquaredNorms()[i]).isLessThanOrEqualTo(1.0).isGreaterThan(1 - 1e-9);
        }
        assertThat(cm.row(2)).containsOnly(0.0);
        assertThat(cm.row(3)).containsOnly(0.0);
        assertThat(um.row(2)).containsOnly(0.0);
        assertThat(um.row(3)).containsOnly(0.0);
    }
    /**
     * The row-local maps an engine applies row by row ({@link ClassStatistics#clipRow}, {@link ClassStatistics#normaliseRow})
     * are the matrix maps, bit for bit on a dense matrix: rows inside and outside the ball, a zero row, a NaN row.
     */
    @Test
    void rowByRowClippingIsTheMatrixClippingBitForBit() {
        SplittableRandom r = new SplittableRandom(17);
        double[][] rows = new double[40][7];
        for (int i = 0; i < rows.length; i++) {
            for (int j = 0; j < 7; j++) {
                rows[i][j] = gauss(r) * (i % 4);
            }
        }
        rows[5][3] = Double.NaN;
        rows[6][0] = Double.POSITIVE_INFINITY;
        DenseMatrix x = DenseMatrix.fromRows(rows);
        for (double bound : new double[] {0.5, 2.0, 100.0}) {
            DenseMatrix clipped = ClassStatistics.clipRows(x, bound).toDense();
            for (int i = 0; i < rows.length; i++) {
                assertThat(ClassStatistics.clipRow(rows[i], bound)).as("row %d, R %s", i, bound).isEqualTo(clipped.row(i));
            }
        }
        DenseMatrix unit = ClassStatistics.normaliseRows(x).toDense();
        for (int i = 0; i < rows.length; i++) {
            assertThat(ClassStatistics.normaliseRow(rows[i])).as("row %d", i).isEqualTo(unit.row(i));
        }
    }

    @Test
    void statisticsFromExactPartsEqualTheComputedOnes() {
        ClassStatistics s = ClassStatistics.of(DenseMatrix.fromRows(TINY), TINY_Y, 3, true);
        ClassStatistics t = ClassStatistics.ofExact(s.counts(), s.sums(), s.moment());
        assertThat(t.counts()).isEqualTo(s.counts());
        assertThat(t.sums().data()).isEqualTo(s.sums().data());
        assertThat(t.moment().data()).isEqualTo(s.moment().data());
        assertThatThrownBy(() -> ClassStatistics.ofExact(new double[2], s.sums(), null)).hasMessageContaining("2 counts but 3");
        assertThatThrownBy(() -> ClassStatistics.ofExact(s.counts(), s.sums(), DenseMatrix.zeros(3, 3)))
                .hasMessageContaining("moment is 3 x 3");
    }
}
