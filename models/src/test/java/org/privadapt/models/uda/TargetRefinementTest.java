package org.privadapt.models.uda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.Classifier;
import org.privadapt.models.LogisticRegression;
import org.privadapt.models.Softmax;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;

/**
 * {@link TargetRefinement}: spherical k-means from a model's predictions, self-training and information maximisation,
 * each from a received (poor) model on the target's own rows. Fixed seeds; tolerances stated.
 */
class TargetRefinementTest {
    static final List<String> AB = List.of("a", "b");
    static final List<String> ABC = List.of("a", "b", "c");

    static double gauss(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    record Sample(DenseMatrix x, int[] y) {
    }

    /** k clusters in R^d around 4 e_c (plus a common offset 1 on the last coordinate), isotropic std {@code sd}. */
    static Sample clusters(int k, int d, double sd, int perClass, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(k * perClass, d);
        int[] y = new int[k * perClass];
        for (int i = 0; i < y.length; i++) {
            y[i] = i % k;
            for (int j = 0; j < d; j++) {
                x.set(i, j, (j == y[i] ? 4 : 0) + (j == d - 1 ? 1 : 0) + sd * gauss(r));
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

    static Network linear(double[][] wRows, double[] b, List<String> names) {
        // wRows[c] is class c's weight vector
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

    /**
     * A poor linear model for {@link #clusters}: each class's weight leans towards the next class's centre, and a bias
     * favours class 0; better than chance, far from the clusters' accuracy.
     */
    static Network poor(int k, int d) {
        double[][] w = new double[k][d];
        double[] b = new double[k];
        for (int c = 0; c < k; c++) {
            w[c][c] = 1;
            w[c][(c + 1) % k] = 0.75;
        }
        b[0] = k == 2 ? 1.05 : 1.5;
        return linear(w, b, k == 2 ? AB : ABC);
    }

    // ----------------------------------------------------------------------------------------------------- centroids

    @Test
    void centroidsTurnAPoorClassifierIntoANearPerfectOneOnSeparatedClusters() {
        for (int k : new int[] {2, 3}) {
            Sample t = clusters(k, 4, 0.8, 150, 10 + k);
            Network model = poor(k, 4);
            double before = accuracy(model.predict(t.x()), t.y());
            // better than chance, but poor (observed 0.70 for k = 2, 0.74 for k = 3; after: 1.0)
            assertThat(before).as("k %d, before", k).isGreaterThan(1.0 / k + 0.05).isLessThan(0.85);
            Network refined = TargetRefinement.centroids(model, t.x(), 10);
            double after = accuracy(refined.predict(t.x()), t.y());
            assertThat(after).as("k %d, after (before %f)", k, before).isGreaterThan(0.98);
            // a linear model without bias over the target's features, with the model's classes; predictions on fresh
            // rows from the same clusters are as good (tolerance 2 points)
            assertThat(refined.layers()).isEqualTo(1);
            assertThat(refined.sizes()).containsExactly(4, k);
            assertThat(refined.classNames()).isEqualTo(model.classNames());
            assertThat(refined.bias(0)).containsOnly(0.0);
            Sample fresh = clusters(k, 4, 0.8, 200, 50 + k);
            assertThat(accuracy(refined.predict(fresh.x()), fresh.y())).isGreaterThan(0.96);
            // row-norm invariant (a cosine rule)
            double[] f = new double[t.x().rows()];
            SplittableRandom r = new SplittableRandom(3);
            for (int i = 0; i < f.length; i++) {
                f[i] = 0.01 + 50 * r.nextDouble();
            }
            assertThat(refined.predict(t.x().scaleRows(f))).containsExactly(refined.predict(t.x()));
        }
    }

    /** Spherical k-means by hand: the class directions of the given assignment (d x K, normalised columns). */
    static DenseMatrix directionsByHand(DenseMatrix x, int[] assign, int k) {
        int d = x.cols();
        DenseMatrix dirs = DenseMatrix.zeros(d, k);
        for (int i = 0; i < x.rows(); i++) {
            double[] row = x.row(i);
            double n = 0;
            for (double v : row) {
                n += v * v;
            }
            n = Math.sqrt(n);
            for (int j = 0; j < d; j++) {
                dirs.set(j, assign[i], dirs.get(j, assign[i]) + (n > 0 ? row[j] / n : 0));
            }
        }
        for (int c = 0; c < k; c++) {
            double n = 0;
            for (int j = 0; j < d; j++) {
                n += dirs.get(j, c) * dirs.get(j, c);
            }
            n = Math.sqrt(n);
            for (int j = 0; j < d; j++) {
                dirs.set(j, c, n > 0 ? dirs.get(j, c) / n : 0);
            }
        }
        return dirs;
    }

    static void assertSameMatrix(DenseMatrix a, DenseMatrix b, String what) {
        assertThat(a.rows()).isEqualTo(b.rows());
        assertThat(a.cols()).isEqualTo(b.cols());
        assertThat(a.minus(b).maxAbs()).as(what).isLessThan(1e-12);
    }

    @Test
    void centroidsRunExactlyTheGivenNumberOfIterations() {
        Sample t = clusters(3, 4, 0.8, 60, 21);
        Network model = poor(3, 4);
        int[] assign = model.predict(t.x());
        // 0 iterations: the directions of the model's own predictions
        DenseMatrix d0 = directionsByHand(t.x(), assign, 3);
        assertSameMatrix(TargetRefinement.centroids(model, t.x(), 0).weights(0), d0, "0 iterations");
        // 1 and 2 iterations: that many reassignments by cosine, then the directions again
        int[] a1 = Softmax.argmaxRows(TargetRefinement.unitRows(t.x()).multiply(d0));
        assertThat(a1).isNotEqualTo(assign); // the first reassignment changes something
        DenseMatrix d1 = directionsByHand(t.x(), a1, 3);
        assertSameMatrix(TargetRefinement.centroids(model, t.x(), 1).weights(0), d1, "1 iteration");
        int[] a2 = Softmax.argmaxRows(TargetRefinement.unitRows(t.x()).multiply(d1));
        DenseMatrix d2 = directionsByHand(t.x(), a2, 3);
        assertSameMatrix(TargetRefinement.centroids(model, t.x(), 2).weights(0), d2, "2 iterations");
        // once the assignment is stable, more iterations change nothing
        assertSameMatrix(TargetRefinement.centroids(model, t.x(), 100).weights(0), TargetRefinement.centroids(model, t.x(), 30).weights(0),
                "converged");
    }

    @Test
    void aClassNeverPredictedKeepsItsFallbackDirectionForLinearModels() {
        // two clusters of a three-class model; class c points away from every row and is never predicted
        Sample t = clusters(2, 4, 0.6, 80, 31);
        double[][] w = {{1, 0.5, 0, 0}, {0.6, 1, 0, 0}, {-1, -1, -2, -0.5}};
        Network model = linear(w, new double[] {0.5, 0, -3}, ABC);
        assertThat(model.predict(t.x())).doesNotContain(2);
        Network refined = TargetRefinement.centroids(model, t.x(), 10);
        double norm = Math.sqrt(1 + 1 + 4 + 0.25);
        assertThat(refined.weights(0).columnCopy(2)).containsExactly(new double[] {-1 / norm, -1 / norm, -2 / norm, -0.5 / norm}, within(1e-12));
        assertThat(refined.predict(t.x())).doesNotContain(2);
        assertThat(accuracy(refined.predict(t.x()), t.y())).isGreaterThan(0.98);
        // the same weights as a logistic regression (not a Network): no fallback, the direction is zero
        LogisticRegression lr = new LogisticRegression(model.weights(0), model.bias(0), ABC);
        Network fromLr = TargetRefinement.centroids(lr, t.x(), 10);
        assertThat(fromLr.weights(0).columnCopy(2)).containsOnly(0.0);
        assertThat(fromLr.predict(t.x())).doesNotContain(2);
        assertThat(fromLr.weights(0).columnCopy(0)).containsExactly(refined.weights(0).columnCopy(0), within(1e-12));
    }

    // ------------------------------------------------------------------------------------------------ self-training

    @Test
    void selfTrainingReturnsAClassifierOverTheSameClasses() {
        Sample t = clusters(3, 4, 0.8, 100, 41);
        Network model = poor(3, 4);
        assertThat(TargetRefinement.selfTraining(model, t.x(), 0, 1e-3)).isSameAs(model);
        Classifier st = TargetRefinement.selfTraining(model, t.x(), 3, 1e-3);
        assertThat(st.classNames()).isEqualTo(ABC);
        assertThat(st.dimension()).isEqualTo(4);
        assertThat(st.predictProba(t.x()).cols()).isEqualTo(3);
        // fitted to the more confident half of each pseudo-class, it corrects the poor model (about 0.74) on separated
        // clusters: the confident rows are mostly right, and a fit to them generalises (fitting every pseudo-label
        // would reproduce the model's errors)
        assertThat(accuracy(model.predict(t.x()), t.y())).isLessThan(0.8);
        assertThat(accuracy(st.predict(t.x()), t.y())).isGreaterThan(0.9);
        // a class the model never predicts is still among the classes of the result
        double[][] w = {{1, 0.5, 0, 0}, {0.6, 1, 0, 0}, {-1, -1, -2, -0.5}};
        Network twoOfThree = linear(w, new double[] {0.5, 0, -3}, ABC);
        Sample t2 = clusters(2, 4, 0.6, 80, 42);
        Classifier st2 = TargetRefinement.selfTraining(twoOfThree, t2.x(), 2, 1e-3);
        assertThat(st2.classNames()).isEqualTo(ABC);
        assertThat(st2.predictProba(t2.x()).cols()).isEqualTo(3);
    }

    // -------------------------------------------------------------------------------------- information maximisation

    /** theta0 as the method defines it: the model rescaled so that its logits on the target have std {@code temperature}. */
    static double[] theta0(Network m, FeatureMatrix x, double temperature) {
        DenseMatrix z = x.multiply(m.weights(0)).plusRowVector(m.bias(0));
        double[] v = z.data();
        double mean = 0;
        for (double a : v) {
            mean += a / v.length;
        }
        double var = 0;
        for (double a : v) {
            var += (a - mean) * (a - mean) / v.length;
        }
        double scale = temperature / Math.sqrt(var);
        return scaled(params(m), scale);
    }

    static double[] params(Network m) {
        double[] w = m.weights(0).data();
        double[] b = m.bias(0);
        double[] t = new double[w.length + b.length];
        System.arraycopy(w, 0, t, 0, w.length);
        System.arraycopy(b, 0, t, w.length, b.length);
        return t;
    }

    static double[] scaled(double[] v, double s) {
        double[] o = v.clone();
        for (int i = 0; i < o.length; i++) {
            o[i] *= s;
        }
        return o;
    }

    /** The IM objective written independently: mean_i H(p_i) - H(mean p) + anchor/2 ||theta - theta0||^2. */
    static double imObjective(double[] theta, double[] theta0, FeatureMatrix x, int k, double anchor) {
        int n = x.rows();
        int d = x.cols();
        double[] pbar = new double[k];
        double meanH = 0;
        for (int i = 0; i < n; i++) {
            double[] row = x.row(i);
            double[] z = new double[k];
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < k; c++) {
                z[c] = theta[d * k + c];
                for (int j = 0; j < d; j++) {
                    z[c] += row[j] * theta[j + c * d];
                }
                max = Math.max(max, z[c]);
            }
            double s = 0;
            for (int c = 0; c < k; c++) {
                s += Math.exp(z[c] - max);
            }
            for (int c = 0; c < k; c++) {
                double p = Math.exp(z[c] - max) / s;
                pbar[c] += p / n;
                if (p > 0) {
                    meanH -= p * Math.log(p) / n;
                }
            }
        }
        double hbar = 0;
        for (double p : pbar) {
            if (p > 0) {
                hbar -= p * Math.log(p);
            }
        }
        double reg = 0;
        for (int t = 0; t < theta.length; t++) {
            reg += (theta[t] - theta0[t]) * (theta[t] - theta0[t]);
        }
        return meanH - hbar + 0.5 * anchor * reg;
    }

    static double[] fdGradient(double[] theta, double[] theta0, FeatureMatrix x, int k, double anchor) {
        double[] g = new double[theta.length];
        for (int t = 0; t < theta.length; t++) {
            double h = 1e-6 * Math.max(1, Math.abs(theta[t]));
            double[] p = theta.clone();
            double[] m = theta.clone();
            p[t] += h;
            m[t] -= h;
            g[t] = (imObjective(p, theta0, x, k, anchor) - imObjective(m, theta0, x, k, anchor)) / (2 * h);
        }
        return g;
    }

    static double norm(double[] v) {
        double s = 0;
        for (double a : v) {
            s += a * a;
        }
        return Math.sqrt(s);
    }

    /** A linear model with the clusters' directions rotated in the plane of the first two coordinates. */
    static Network misRotated(int k, int d, double angle) {
        double[][] w = new double[k][d];
        double[] b = new double[k];
        for (int c = 0; c < k; c++) {
            w[c][c] = 1;
        }
        // rotate every weight vector in the (0, 1) plane
        for (int c = 0; c < k; c++) {
            double a = w[c][0];
            double bb = w[c][1];
            w[c][0] = Math.cos(angle) * a - Math.sin(angle) * bb;
            w[c][1] = Math.sin(angle) * a + Math.cos(angle) * bb;
        }
        return linear(w, b, k == 2 ? AB : ABC);
    }

    @Test
    void informationMaximisationReachesAStationaryPointOfTheIndependentlyWrittenObjective() {
        // the analytic gradient is not exposed; if it were wrong, L-BFGS would stop (or converge) where the true
        // objective's finite-difference gradient is not small. Tolerance: 1e-3 of its norm at the start.
        Sample t = clusters(3, 3, 1.2, 50, 61);
        Network model = misRotated(3, 3, 0.5);
        double anchor = 0.1;
        double temperature = 3.0;
        double[] th0 = theta0(model, t.x(), temperature);
        double start = norm(fdGradient(th0, th0, t.x(), 3, anchor));
        assertThat(start).isGreaterThan(1e-2);
        Network im = TargetRefinement.informationMaximisation(model, t.x(), 500, anchor, temperature);
        double[] th = params(im);
        double end = norm(fdGradient(th, th0, t.x(), 3, anchor));
        assertThat(end).as("gradient norm at the result (start %f)", start).isLessThan(1e-3 * start);
        assertThat(imObjective(th, th0, t.x(), 3, anchor)).isLessThan(imObjective(th0, th0, t.x(), 3, anchor));
    }

    @Test
    void informationMaximisationImprovesAMisRotatedModelOnSeparatedClusters() {
        for (int k : new int[] {2, 3}) {
            Sample t = clusters(k, 4, 0.9, 150, 70 + k);
            Network model = misRotated(k, 4, 0.8);
            double before = accuracy(model.predict(t.x()), t.y());
            assertThat(before).as("k %d, before", k).isBetween(1.0 / k + 0.05, 0.9); // observed 0.70, 0.81; after 1.0
            Network im = TargetRefinement.informationMaximisation(model, t.x(), 50, 1e-3, 3.0);
            double after = accuracy(im.predict(t.x()), t.y());
            assertThat(after).as("k %d, after (before %f)", k, before).isGreaterThan(before + 0.05).isGreaterThan(0.95);
            assertThat(im.classNames()).isEqualTo(model.classNames());
            assertThat(im.sizes()).containsExactly(4, k);
        }
    }

    @Test
    void withAHugeAnchorInformationMaximisationLeavesTheRescaledModelsPredictionsUnchanged() {
        Sample t = clusters(3, 4, 1.5, 80, 81);
        Network model = misRotated(3, 4, 0.8);
        Network im = TargetRefinement.informationMaximisation(model, t.x(), 50, 1e9, 3.0);
        // the result is theta0 (the model scaled to logit std 3) up to O(1 / anchor)
        double[] th0 = theta0(model, t.x(), 3.0);
        double[] th = params(im);
        for (int i = 0; i < th.length; i++) {
            assertThat(th[i]).as("parameter %d", i).isCloseTo(th0[i], within(1e-6));
        }
        assertThat(im.predict(t.x())).containsExactly(model.predict(t.x()));
        // and the scale really was changed (the rescaling is part of the method)
        assertThat(norm(th)).isNotCloseTo(norm(params(model)), within(0.1));
    }

    @Test
    void informationMaximisationRefusesModelsWithHiddenLayers() {
        Network mlp = Network.create(4, new int[] {5}, Activation.RELU, ABC, 1);
        assertThatThrownBy(() -> TargetRefinement.informationMaximisation(mlp, clusters(3, 4, 1, 10, 1).x(), 5, 1e-3, 3.0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("linear");
    }

    @Test
    void asNetworkIsTheSameLinearModel() {
        Sample t = clusters(3, 4, 1, 30, 91);
        Network m = poor(3, 4);
        LogisticRegression lr = new LogisticRegression(m.weights(0), m.bias(0), ABC);
        Network n = TargetRefinement.asNetwork(lr);
        assertThat(n.predictProba(t.x()).minus(lr.predictProba(t.x())).maxAbs()).isLessThan(1e-12);
        assertThat(n.classNames()).isEqualTo(ABC);
    }
}
