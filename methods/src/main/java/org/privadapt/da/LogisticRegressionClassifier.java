package org.privadapt.da;

import java.util.ArrayList;
import java.util.List;
import org.privadapt.data.ClassLabels;
import org.privadapt.models.LogisticRegression;
import org.privadapt.models.LogisticRegressionTrainer;

/**
 * Multinomial logistic regression on arrays, scikit-learn style: {@code fit(x, y)}, {@code predict(x)},
 * {@code score(x, y)}. Labels are class codes {@code 0..k-1}; L-BFGS on the L2-regularised loss. Non-private (see
 * {@link org.privadapt.dp.PrivateClassifier} for the DP-SGD version).
 */
public final class LogisticRegressionClassifier {
    private final double l2;
    private LogisticRegression model;

    /** l2 = 1e-3, the CLI's default. */
    public LogisticRegressionClassifier() {
        this(1e-3);
    }

    public LogisticRegressionClassifier(double l2) {
        if (!(l2 >= 0)) {
            throw new IllegalArgumentException("l2 must be >= 0, got " + l2);
        }
        this.l2 = l2;
    }

    public LogisticRegressionClassifier fit(double[][] x, int[] y) {
        var m = Arrays2.matrix(x, "x");
        model = new LogisticRegressionTrainer(l2, 500).fit(m, labels(y, m.rows()));
        return this;
    }

    public int[] predict(double[][] x) {
        Arrays2.fitted(model, "LogisticRegressionClassifier");
        return ClassCodes.predict(model, x);
    }

    /** Accuracy on labelled rows. */
    public double score(double[][] x, int[] y) {
        return ClassCodes.accuracy(predict(x), y);
    }

    /** Class codes as labels named by their code, so predictions map back to the caller's codes. */
    static ClassLabels labels(int[] y, int n) {
        if (y == null || y.length != n) {
            throw new IllegalArgumentException((y == null ? 0 : y.length) + " labels for " + n + " rows");
        }
        int k = 0;
        for (int v : y) {
            if (v < 0) {
                throw new IllegalArgumentException("labels must be class codes 0..k-1, got " + v);
            }
            k = Math.max(k, v + 1);
        }
        List<String> names = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            names.add(Integer.toString(c));
        }
        return new ClassLabels(y.clone(), names);
    }
}
