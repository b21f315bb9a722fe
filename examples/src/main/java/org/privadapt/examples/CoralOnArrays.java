package org.privadapt.examples;

import java.util.Random;
import org.privadapt.da.CoralTransport;
import org.privadapt.da.LogisticRegressionClassifier;

/** CORAL on plain arrays: align the source to the target, train on it, score on the target. */
public final class CoralOnArrays {
    public static void main(String[] args) {
        Random r = new Random(1);
        int n = 1000;
        double[][] xs = new double[n][];
        double[][] xt = new double[n][];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
            double a = (y[i] == 0 ? -0.8 : 0.8) + 0.6 * r.nextGaussian(), b = r.nextGaussian();
            double c = (y[i] == 0 ? -0.8 : 0.8) + 0.6 * r.nextGaussian(), d = r.nextGaussian();
            xs[i] = new double[] {a, b};
            xt[i] = new double[] {c + 2 * d, 2 * c + 5 * d}; // the target mixes the features
        }
        double before = new LogisticRegressionClassifier().fit(xs, y).score(xt, y);
        double[][] aligned = new CoralTransport(0.01).fit(xs, xt).transform(xs);
        double after = new LogisticRegressionClassifier().fit(aligned, y).score(xt, y);
        System.out.printf("target accuracy: source-only %.1f %%, CORAL %.1f %%%n", 100 * before, 100 * after);
    }
}
