package org.privadapt.models.dp;

import java.util.Arrays;
import org.privadapt.math.DenseMatrix;

/**
 * Neighbouring datasets for the models-level harness tests (the methods-level harness, methods/.../neighbours, sits
 * above this module): labelled rows, and the datasets with one row removed, added or replaced.
 */
final class NeighbourRows {
    private NeighbourRows() {
    }

    record Data(double[][] x, int[] y) {
        DenseMatrix matrix() {
            return DenseMatrix.fromRows(x);
        }
    }

    record Pair(String name, Data d, Data dPrime) {
    }

    static Data without(Data b, int i) {
        double[][] x = new double[b.x().length - 1][];
        int[] y = new int[x.length];
        for (int a = 0, t = 0; a < b.x().length; a++) {
            if (a != i) {
                x[t] = b.x()[a].clone();
                y[t++] = b.y()[a];
            }
        }
        return new Data(x, y);
    }

    static Data with(Data b, double[] row, int label) {
        int n = b.x().length;
        double[][] x = Arrays.copyOf(b.x(), n + 1);
        int[] y = Arrays.copyOf(b.y(), n + 1);
        x[n] = row.clone();
        y[n] = label;
        return new Data(x, y);
    }

    static Data replaced(Data b, int i, double[] row, int label) {
        double[][] x = new double[b.x().length][];
        for (int a = 0; a < x.length; a++) {
            x[a] = b.x()[a].clone();
        }
        int[] y = b.y().clone();
        x[i] = row.clone();
        y[i] = label;
        return new Data(x, y);
    }
}
