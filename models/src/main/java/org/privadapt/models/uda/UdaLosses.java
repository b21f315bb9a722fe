package org.privadapt.models.uda;

import org.privadapt.math.DenseMatrix;
import org.privadapt.models.nn.Losses;

/**
 * The losses of paper 004's target-side objective (Eq. 7, as the notes repair it, methods-001-003-004.md 4.2 Step 3),
 * each as a value and its gradient with respect to the logits it is given. Every loss is a <b>mean over the batch
 * rows</b> (repair (v)), so the gradients already carry the 1 / n. Logs are taken in the log domain (log-softmax,
 * softplus), so saturated probabilities give finite values; the per-element cross-entropies, softplus and log-sum-exp
 * are {@link Losses}'s, shared with the DP-SGD targets.
 *
 * <p>With u the logits, g the {@link OutputMode}'s probabilities and n the rows:
 * <ul>
 *   <li>{@link #crossEntropy}: SOFTMAX {@code mean_j sum_k -y_jk log softmax(u_j)_k}; SIGMOID the per-label binary
 *       cross-entropy {@code mean_j sum_l -[y log s + (1 - y) log(1 - s)]}, s = sigmoid(u); gradient (g(u) - y) / n;</li>
 *   <li>{@link #distillation}: L_KD = t^2 * crossEntropy(student u / t, target g(teacher / t)) (Eq. 5 with
 *       Hinton's t^2, t = 20 in the paper); gradient t (g(u / t) - g(teacher / t)) / n;</li>
 *   <li>{@link #entropy}: L_ent = mean_j H(p_j) (Eq. 6, first term): SOFTMAX the Shannon entropy over K, SIGMOID the
 *       sum of the K binary entropies;</li>
 *   <li>{@link #diversity}: L_div = sum_k pbar_k log pbar_k with pbar the batch mean of p (Eq. 6, second term, with
 *       repair (ii): probabilities, not logits); SIGMOID: sum_l [pbar_l log pbar_l + (1 - pbar_l) log(1 - pbar_l)],
 *       the negative binary entropy of each label's mean rate. Minimising it spreads predictions over classes (SOFTMAX)
 *       or pushes each label's positive rate towards 1/2 (SIGMOID; strong for rare labels, weight it down then);</li>
 *   <li>{@link #domainCrossEntropy}: the discriminator's loss L_adv, binary cross-entropy of one logit per row
 *       (source label 1, target label 0; repair (i): D minimises it).</li>
 * </ul>
 */
public final class UdaLosses {
    private UdaLosses() {
    }

    /** A loss value and its gradient with respect to the input it was computed from (same shape). */
    public record Loss(double value, DenseMatrix gradient) {
    }

    /** Mean cross-entropy of {@code targets} (n x K: one-hot, soft, or 0/1 per label) against g(logits). */
    public static Loss crossEntropy(OutputMode mode, DenseMatrix logits, DenseMatrix targets) {
        checkSame(logits, targets);
        int n = logits.rows();
        int k = logits.cols();
        double[] u = logits.data();
        double[] y = targets.data();
        DenseMatrix grad = mode.probabilities(logits);
        double[] g = grad.data();
        double value = 0;
        if (mode == OutputMode.SOFTMAX) {
            double[] lse = Losses.logSumExpRows(logits);
            for (int c = 0; c < k; c++) {
                for (int i = 0; i < n; i++) {
                    int q = i + c * n;
                    if (y[q] != 0) {
                        value -= y[q] * (u[q] - lse[i]);
                    }
                }
            }
        } else {
            for (int q = 0; q < u.length; q++) { // -[y log s + (1 - y) log(1 - s)] = softplus(u) - y u
                value += Losses.sigmoidCrossEntropy(u[q], y[q]);
            }
        }
        for (int q = 0; q < g.length; q++) {
            g[q] = (g[q] - y[q]) / n;
        }
        return new Loss(value / n, grad);
    }

    /**
     * L_KD = t^2 mean_j CE(g(teacher_j / t), g(student_j / t)); the gradient is with respect to the student logits.
     */
    public static Loss distillation(OutputMode mode, DenseMatrix studentLogits, DenseMatrix teacherLogits, double t) {
        if (!(t > 0)) {
            throw new IllegalArgumentException("temperature must be positive, got " + t);
        }
        checkSame(studentLogits, teacherLogits);
        DenseMatrix target = mode.probabilities(teacherLogits.scale(1.0 / t));
        Loss ce = crossEntropy(mode, studentLogits.scale(1.0 / t), target);
        // d/du of t^2 CE(u / t) = t^2 (1 / t) dCE = t dCE
        ce.gradient().scaleInPlace(t);
        return new Loss(t * t * ce.value(), ce.gradient());
    }

    /** L_ent = mean_j H(g(u_j)); SOFTMAX dH/du_k = -p_k (log p_k + H), SIGMOID dh/du = -u p (1 - p). */
    public static Loss entropy(OutputMode mode, DenseMatrix logits) {
        int n = logits.rows();
        int k = logits.cols();
        double[] u = logits.data();
        DenseMatrix p = mode.probabilities(logits);
        double[] pd = p.data();
        DenseMatrix grad = DenseMatrix.zeros(n, k);
        double[] g = grad.data();
        double value = 0;
        if (mode == OutputMode.SOFTMAX) {
            double[] lse = Losses.logSumExpRows(logits);
            double[] h = new double[n];
            for (int c = 0; c < k; c++) {
                for (int i = 0; i < n; i++) {
                    int q = i + c * n;
                    h[i] -= pd[q] * (u[q] - lse[i]);
                }
            }
            for (int c = 0; c < k; c++) {
                for (int i = 0; i < n; i++) {
                    int q = i + c * n;
                    g[q] = -pd[q] * (u[q] - lse[i] + h[i]) / n;
                }
            }
            for (double v : h) {
                value += v;
            }
        } else {
            for (int q = 0; q < u.length; q++) {
                // h(s) = softplus(u) - s u for s = sigmoid(u): the cross-entropy of s against itself
                value += Losses.sigmoidCrossEntropy(u[q], pd[q]);
                g[q] = -u[q] * pd[q] * (1 - pd[q]) / n;
            }
        }
        return new Loss(value / n, grad);
    }

    /** L_div of the batch mean pbar of g(u) (see the class comment); the gradient is with respect to every row's logits. */
    public static Loss diversity(OutputMode mode, DenseMatrix logits) {
        int n = logits.rows();
        int k = logits.cols();
        DenseMatrix p = mode.probabilities(logits);
        double[] pd = p.data();
        double[] pbar = p.columnMeans();
        double[] a = new double[k]; // dL_div / dpbar_k (the constant +1 of the softmax case cancels in its Jacobian)
        double value = 0;
        for (int c = 0; c < k; c++) {
            double m = Math.min(Math.max(pbar[c], 1e-300), 1.0);
            if (mode == OutputMode.SOFTMAX) {
                value += pbar[c] > 0 ? pbar[c] * Math.log(m) : 0.0;
                a[c] = Math.log(m);
            } else {
                double o = Math.max(1 - pbar[c], 1e-300);
                value += (pbar[c] > 0 ? pbar[c] * Math.log(m) : 0.0) + (pbar[c] < 1 ? (1 - pbar[c]) * Math.log(o) : 0.0);
                a[c] = Math.log(m) - Math.log(o);
            }
        }
        DenseMatrix grad = DenseMatrix.zeros(n, k);
        double[] g = grad.data();
        if (mode == OutputMode.SOFTMAX) { // dL/du_jm = p_jm (a_m - sum_k p_jk a_k) / n
            double[] pa = new double[n];
            for (int c = 0; c < k; c++) {
                for (int i = 0; i < n; i++) {
                    pa[i] += pd[i + c * n] * a[c];
                }
            }
            for (int c = 0; c < k; c++) {
                for (int i = 0; i < n; i++) {
                    int q = i + c * n;
                    g[q] = pd[q] * (a[c] - pa[i]) / n;
                }
            }
        } else { // dL/du_jl = a_l p_jl (1 - p_jl) / n
            for (int c = 0; c < k; c++) {
                for (int i = 0; i < n; i++) {
                    int q = i + c * n;
                    g[q] = a[c] * pd[q] * (1 - pd[q]) / n;
                }
            }
        }
        return new Loss(value, grad);
    }

    /**
     * The discriminator's binary cross-entropy, mean over rows, for logits {@code o} (n x 1) whose first
     * {@code sourceRows} rows are source (label 1) and the rest target (label 0); gradient (sigmoid(o) - y) / n.
     */
    public static Loss domainCrossEntropy(DenseMatrix o, int sourceRows) {
        if (o.cols() != 1 || sourceRows < 0 || sourceRows > o.rows()) {
            throw new IllegalArgumentException("need n x 1 logits and 0 <= sourceRows <= n, got " + o.rows() + " x " + o.cols()
                    + " and " + sourceRows);
        }
        int n = o.rows();
        double[] od = o.data();
        DenseMatrix grad = DenseMatrix.zeros(n, 1);
        double[] g = grad.data();
        double value = 0;
        for (int i = 0; i < n; i++) {
            double y = i < sourceRows ? 1.0 : 0.0;
            value += Losses.sigmoidCrossEntropy(od[i], y);
            g[i] = Losses.sigmoidError(od[i], y) / n;
        }
        return new Loss(value / n, grad);
    }

    /** The gradient with respect to the logits from one with respect to the probabilities g(logits) (the mode's Jacobian). */
    public static DenseMatrix probabilityToLogitError(OutputMode mode, DenseMatrix probabilities, DenseMatrix dProb) {
        checkSame(probabilities, dProb);
        int n = probabilities.rows();
        int k = probabilities.cols();
        double[] p = probabilities.data();
        double[] d = dProb.data();
        DenseMatrix out = DenseMatrix.zeros(n, k);
        double[] o = out.data();
        if (mode == OutputMode.SOFTMAX) { // p_m (d_m - sum_k p_k d_k)
            double[] pd = new double[n];
            for (int c = 0; c < k; c++) {
                for (int i = 0; i < n; i++) {
                    pd[i] += p[i + c * n] * d[i + c * n];
                }
            }
            for (int c = 0; c < k; c++) {
                for (int i = 0; i < n; i++) {
                    int q = i + c * n;
                    o[q] = p[q] * (d[q] - pd[i]);
                }
            }
        } else {
            for (int q = 0; q < o.length; q++) {
                o[q] = p[q] * (1 - p[q]) * d[q];
            }
        }
        return out;
    }

    private static void checkSame(DenseMatrix a, DenseMatrix b) {
        if (a.rows() != b.rows() || a.cols() != b.cols()) {
            throw new IllegalArgumentException("shapes differ: " + a.rows() + " x " + a.cols() + " vs " + b.rows() + " x " + b.cols());
        }
    }
}
