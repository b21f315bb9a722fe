package org.privadapt.models.uda;

import java.util.Arrays;
import java.util.List;
import org.privadapt.data.ClassLabels;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.optim.Lbfgs;
import org.privadapt.models.Classifier;
import org.privadapt.models.LogisticRegression;
import org.privadapt.models.LogisticRegressionTrainer;
import org.privadapt.models.Softmax;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;

/**
 * Adaptation of a received model on the target's own unlabelled rows, by the target, after the model was released:
 * it reads the model (a DP release, so this is post-processing for the source) and the target's rows, and its
 * result stays with the target (nothing is released). Three plain procedures, each starting from the model's
 * predictions:
 * <ul>
 *   <li>{@link #centroids}: spherical k-means on the target's L2-normalised rows, initialised with the classes the
 *       model predicts, predicting by cosine similarity to the refined class directions (the class-centroid
 *       refinement of source-free adaptation, e.g. SHOT's centroid pseudo-labels, Liang et al., ICML 2020);</li>
 *   <li>{@link #selfTraining}: rounds of logistic regression fitted to the current pseudo-labels;</li>
 *   <li>{@link #informationMaximisation}: a linear model fine-tuned to minimise the mean prediction entropy minus
 *       the entropy of the mean prediction (the IM loss of SHOT and of paper 004), anchored to the received model.</li>
 * </ul>
 * All iteration counts are fixed in advance.
 */
public final class TargetRefinement {
    private TargetRefinement() {
    }

    /**
     * Spherical k-means from the model's predicted classes: each class direction is the normalised sum of the
     * target's unit rows assigned to it; rows are reassigned by cosine similarity, {@code iterations} times. A class
     * the model never predicts starts with no rows and a zero direction unless the model is linear, in which case its
     * normalised weight column stands in. A zero direction scores 0, so it can still win rows whose cosine with every
     * other direction is negative (possible for centred rows, not for non-negative features), and then gets a direction.
     *
     * @return a linear model without bias over the target's features (cosine rule; independent of row norms)
     */
    public static Network centroids(Classifier model, FeatureMatrix target, int iterations) {
        int k = model.classNames().size();
        FeatureMatrix unit = unitRows(target);
        int[] assign = model.predict(target);
        DenseMatrix fallback = model instanceof Network net && net.layers() == 1 ? normalisedColumns(net.weights(0)) : null;
        DenseMatrix dirs = null;
        for (int it = 0; it <= iterations; it++) {
            dirs = directions(unit, assign, k, fallback);
            int[] next = Softmax.argmaxRows(unit.multiply(dirs));
            if (Arrays.equals(next, assign)) {
                break;
            }
            assign = next;
        }
        return Network.fromParameters(new int[] {target.cols(), k}, Activation.IDENTITY, List.of(dirs), List.of(new double[k]),
                model.classNames());
    }

    /**
     * Spherical k-means from given initial classes of the target's rows (the predictions of any model, e.g. a
     * composite one); a class with no initial row starts with a zero direction (see {@link #centroids(Classifier,
     * FeatureMatrix, int)} for when it can still win rows).
     */
    public static Network centroids(int[] initial, List<String> classNames, FeatureMatrix target, int iterations) {
        int k = classNames.size();
        FeatureMatrix unit = unitRows(target);
        int[] assign = initial.clone();
        DenseMatrix dirs = null;
        for (int it = 0; it <= iterations; it++) {
            dirs = directions(unit, assign, k, null);
            int[] next = Softmax.argmaxRows(unit.multiply(dirs));
            if (Arrays.equals(next, assign)) {
                break;
            }
            assign = next;
        }
        return Network.fromParameters(new int[] {target.cols(), k}, Activation.IDENTITY, List.of(dirs), List.of(new double[k]),
                classNames);
    }

    /**
     * Target-mean centring of a linear model: class c scores {@code <x - m_t, w_c>}, with m_t the mean of the
     * target's rows, i.e. the model's bias is replaced by {@code -<m_t, w_c>}. For features with a large common
     * component (non-negative deep features), noise in w_c otherwise reaches every score through {@code <m, w_c>} as a
     * per-class offset; centring on the target's own mean removes it (in the spirit of AdaBN's target statistics).
     */
    public static Network centred(Network model, FeatureMatrix target) {
        if (model.layers() != 1) {
            throw new IllegalArgumentException("centring re-estimates a linear model's bias; this model has hidden layers");
        }
        return centred(model, CentredRows.columnMeans(target)); // X^T 1 / n: a sparse target is not densified
    }

    /** As {@link #centred(Network, FeatureMatrix)} with the target's column means given. */
    public static Network centred(Network model, double[] mean) {
        if (model.layers() != 1) {
            throw new IllegalArgumentException("centring re-estimates a linear model's bias; this model has hidden layers");
        }
        DenseMatrix w = model.weights(0);
        int k = w.cols();
        double[] b = new double[k];
        for (int c = 0; c < k; c++) {
            double s = 0;
            for (int j = 0; j < mean.length; j++) {
                s += mean[j] * w.get(j, c);
            }
            b[c] = -s;
        }
        return Network.fromParameters(model.sizes(), model.hiddenActivation(), List.of(w), List.of(b), model.classNames());
    }

    /** Class directions (d x K): normalised sums of the rows assigned to each class. */
    static DenseMatrix directions(FeatureMatrix unit, int[] assign, int k, DenseMatrix fallback) {
        int n = unit.rows();
        DenseMatrix onehot = DenseMatrix.zeros(n, k);
        for (int i = 0; i < n; i++) {
            onehot.set(i, assign[i], 1.0);
        }
        DenseMatrix sums = unit.transposeMultiply(onehot); // d x K
        DenseMatrix dirs = normalisedColumns(sums);
        if (fallback != null) {
            for (int c = 0; c < k; c++) {
                boolean empty = true;
                for (int i = 0; i < n && empty; i++) {
                    empty = assign[i] != c;
                }
                if (empty) {
                    dirs.setColumn(c, fallback.columnCopy(c));
                }
            }
        }
        return dirs;
    }

    /**
     * {@code rounds} rounds of self-training: logistic regression (L2 penalty {@code l2} on the mean loss) fitted to
     * the more confident half of each predicted class (by the margin of the current model's top probability over the
     * runner-up), which then relabels every row. Fitting to all pseudo-labels would reproduce them.
     */
    public static Classifier selfTraining(Classifier model, FeatureMatrix target, int rounds, double l2) {
        Classifier current = model;
        for (int r = 0; r < rounds; r++) {
            current = fitConfident(current, target, model.classNames(), l2);
        }
        return current;
    }

    /** Self-training from given initial classes of the target's rows: the first round fits to all of them. */
    public static Classifier selfTraining(int[] initial, List<String> classNames, FeatureMatrix target, int rounds, double l2) {
        LogisticRegressionTrainer trainer = new LogisticRegressionTrainer(l2, 300);
        Classifier current = trainer.fit(target, new ClassLabels(initial, classNames));
        for (int r = 1; r < rounds; r++) {
            current = fitConfident(current, target, classNames, l2);
        }
        return current;
    }

    private static Classifier fitConfident(Classifier current, FeatureMatrix target, List<String> classNames, double l2) {
        DenseMatrix p = current.predictProba(target);
        int n = target.rows();
        int k = classNames.size();
        int[] label = Softmax.argmaxRows(p);
        double[] margin = new double[n];
        for (int i = 0; i < n; i++) {
            double best = p.get(i, label[i]);
            double second = 0;
            for (int c = 0; c < k; c++) {
                if (c != label[i]) {
                    second = Math.max(second, p.get(i, c));
                }
            }
            margin[i] = best - second;
        }
        java.util.List<Integer> keep = new java.util.ArrayList<>();
        for (int c = 0; c < k; c++) {
            java.util.List<Integer> members = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (label[i] == c) {
                    members.add(i);
                }
            }
            members.sort((a, b) -> Double.compare(margin[b], margin[a]));
            keep.addAll(members.subList(0, (members.size() + 1) / 2));
        }
        int[] idx = keep.stream().mapToInt(Integer::intValue).sorted().toArray();
        int[] y = new int[idx.length];
        for (int i = 0; i < idx.length; i++) {
            y[i] = label[idx[i]];
        }
        return new LogisticRegressionTrainer(l2, 300).fit(target.selectRows(idx), new ClassLabels(y, classNames));
    }

    /**
     * Information maximisation of a linear model on the target's rows: minimises
     * {@code mean_i H(p_i) - H(mean_i p_i) + (anchor / 2) ||theta - theta_0||^2}, starting at theta_0 (the
     * received model, rescaled so that its logits have unit standard deviation: IM is not scale-invariant and a DP
     * release's scale is arbitrary), with {@code iterations} L-BFGS iterations.
     */
    public static Network informationMaximisation(Network model, FeatureMatrix target, int iterations, double anchor,
                                                  double temperature) {
        if (model.layers() != 1) {
            throw new IllegalArgumentException("information maximisation here refines linear models; this one has "
                    + (model.layers() - 1) + " hidden layers");
        }
        int n = target.rows();
        int d = target.cols();
        int k = model.classNames().size();
        DenseMatrix w0 = model.weights(0);
        double[] b0 = model.bias(0);
        DenseMatrix z0 = target.multiply(w0).plusRowVector(b0);
        double sd = standardDeviation(z0.data());
        double scale = sd > 0 ? temperature / sd : 1.0;
        double[] theta0 = new double[d * k + k];
        double[] wa = w0.data();
        for (int j = 0; j < d * k; j++) {
            theta0[j] = wa[j] * scale;
        }
        for (int c = 0; c < k; c++) {
            theta0[d * k + c] = b0[c] * scale;
        }
        Lbfgs.Objective f = (theta, grad) -> {
            DenseMatrix w = new DenseMatrix(d, k, Arrays.copyOf(theta, d * k));
            double[] b = Arrays.copyOfRange(theta, d * k, d * k + k);
            DenseMatrix p = Softmax.inPlace(target.multiply(w).plusRowVector(b));
            double[] pa = p.data();
            double[] pbar = new double[k];
            double meanEntropy = 0;
            double[] h = new double[n];
            for (int c = 0; c < k; c++) {
                for (int i = 0; i < n; i++) {
                    double v = pa[i + c * n];
                    pbar[c] += v / n;
                    if (v > 0) {
                        h[i] -= v * Math.log(v);
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                meanEntropy += h[i] / n;
            }
            double hbar = 0;
            double[] a = new double[k];
            for (int c = 0; c < k; c++) {
                if (pbar[c] > 0) {
                    hbar -= pbar[c] * Math.log(pbar[c]);
                }
                a[c] = Math.log(Math.max(pbar[c], 1e-300)) + 1;
            }
            // dL/dz_ij = (1/n) [ -p_ij (log p_ij + H_i) + p_ij (a_j - sum_c p_ic a_c) ]
            DenseMatrix gz = DenseMatrix.zeros(n, k);
            double[] ga = gz.data();
            for (int i = 0; i < n; i++) {
                double pa2 = 0;
                for (int c = 0; c < k; c++) {
                    pa2 += pa[i + c * n] * a[c];
                }
                for (int c = 0; c < k; c++) {
                    double v = pa[i + c * n];
                    double lg = v > 0 ? Math.log(v) : 0;
                    ga[i + c * n] = (-v * (lg + h[i]) + v * (a[c] - pa2)) / n;
                }
            }
            DenseMatrix gw = target.transposeMultiply(gz);
            double[] gwa = gw.data();
            double reg = 0;
            for (int j = 0; j < d * k; j++) {
                double diff = theta[j] - theta0[j];
                grad[j] = gwa[j] + anchor * diff;
                reg += diff * diff;
            }
            for (int c = 0; c < k; c++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += ga[i + c * n];
                }
                double diff = theta[d * k + c] - theta0[d * k + c];
                grad[d * k + c] = s + anchor * diff;
                reg += diff * diff;
            }
            return meanEntropy - hbar + 0.5 * anchor * reg;
        };
        double[] theta = new Lbfgs(10, iterations, 1e-9, 0.0).minimize(f, theta0).x();
        DenseMatrix w = new DenseMatrix(d, k, Arrays.copyOf(theta, d * k));
        double[] b = Arrays.copyOfRange(theta, d * k, d * k + k);
        return Network.fromParameters(new int[] {d, k}, Activation.IDENTITY, List.of(w), List.of(b), model.classNames());
    }

    /** A linear network equal to a logistic regression (same weights and bias). */
    public static Network asNetwork(LogisticRegression lr) {
        return Network.fromParameters(new int[] {lr.dimension(), lr.classNames().size()}, Activation.IDENTITY,
                List.of(lr.weights()), List.of(lr.bias()), lr.classNames());
    }

    static FeatureMatrix unitRows(FeatureMatrix x) {
        double[] sq = x.rowSquaredNorms();
        double[] f = new double[sq.length];
        for (int i = 0; i < sq.length; i++) {
            f[i] = sq[i] > 0 ? 1.0 / Math.sqrt(sq[i]) : 0.0;
        }
        return x.scaleRows(f);
    }

    static DenseMatrix normalisedColumns(DenseMatrix m) {
        DenseMatrix out = m.copy();
        for (int c = 0; c < m.cols(); c++) {
            double[] col = m.columnCopy(c);
            double s = 0;
            for (double v : col) {
                s += v * v;
            }
            s = Math.sqrt(s);
            for (int j = 0; j < col.length; j++) {
                col[j] = s > 0 ? col[j] / s : 0.0;
            }
            out.setColumn(c, col);
        }
        return out;
    }

    private static double standardDeviation(double[] v) {
        double m = 0;
        for (double x : v) {
            m += x / v.length;
        }
        double s = 0;
        for (double x : v) {
            s += (x - m) * (x - m) / v.length;
        }
        return Math.sqrt(s);
    }
}
