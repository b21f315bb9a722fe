package org.privadapt.da;

import java.util.List;
import org.privadapt.models.Classifier;

/** The array API's labels: class codes 0..k-1, with models whose class names are those codes. */
public final class ClassCodes {
    private ClassCodes() {
    }

    /** The model's predictions for rows, as the caller's class codes. */
    public static int[] predict(Classifier model, double[][] x) {
        int[] idx = model.predict(Arrays2.matrix(x, "x"));
        List<String> names = model.classNames();
        int[] out = new int[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = Integer.parseInt(names.get(idx[i]));
        }
        return out;
    }

    /** The share of predictions equal to the labels. */
    public static double accuracy(int[] predicted, int[] y) {
        if (predicted.length != y.length) {
            throw new IllegalArgumentException(y.length + " labels for " + predicted.length + " rows");
        }
        int ok = 0;
        for (int i = 0; i < predicted.length; i++) {
            ok += predicted[i] == y[i] ? 1 : 0;
        }
        return (double) ok / predicted.length;
    }
}
