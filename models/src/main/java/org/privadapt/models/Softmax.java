package org.privadapt.models;

import org.privadapt.math.DenseMatrix;

/** Row-wise softmax and argmax on column-major n x k matrices, numerically stable (max subtracted). */
public final class Softmax {
    private Softmax() {
    }

    /** Replaces each row of {@code logits} by its softmax, in place, and returns it. */
    public static DenseMatrix inPlace(DenseMatrix logits) {
        normaliseInPlace(logits);
        return logits;
    }

    /**
     * Replaces each row of {@code logits} by its softmax, in place, and returns each row's log normaliser
     * {@code log sum_c exp(logits[i][c])} (computed stably, max first).
     */
    public static double[] normaliseInPlace(DenseMatrix logits) {
        int n = logits.rows();
        int k = logits.cols();
        double[] a = logits.data();
        double[] max = new double[n];
        java.util.Arrays.fill(max, Double.NEGATIVE_INFINITY);
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < n; i++) {
                max[i] = Math.max(max[i], a[i + c * n]);
            }
        }
        double[] sum = new double[n];
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < n; i++) {
                double e = Math.exp(a[i + c * n] - max[i]);
                a[i + c * n] = e;
                sum[i] += e;
            }
        }
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < n; i++) {
                a[i + c * n] /= sum[i];
            }
        }
        double[] logNormaliser = new double[n];
        for (int i = 0; i < n; i++) {
            logNormaliser[i] = max[i] + Math.log(sum[i]);
        }
        return logNormaliser;
    }

    public static int[] argmaxRows(DenseMatrix m) {
        int n = m.rows();
        int k = m.cols();
        double[] a = m.data();
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            double best = a[i];
            for (int c = 1; c < k; c++) {
                double v = a[i + c * n];
                if (v > best) {
                    best = v;
                    out[i] = c;
                }
            }
        }
        return out;
    }
}
