package org.privadapt.data.preprocess;

import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

/**
 * Divides each row by the sum of its absolute values (rows of zeros are left as they are). For count features
 * such as the SURF histograms this turns counts into frequencies, so every entry lies in [0, 1] and every row
 * has L2 norm at most 1. Row-local: it reads nothing but the row it changes.
 */
public final class RowL1Normalize extends RowScaling {
    @Override
    public String spec() {
        return "l1";
    }

    @Override
    String what() {
        return "l1 (rows divided by their L1 norm)";
    }

    @Override
    double factor(double[] row) {
        double l1 = 0;
        for (double v : row) {
            l1 += Math.abs(v);
        }
        return l1 > 0 ? 1.0 / l1 : 1.0;
    }

    @Override
    double[] factors(FeatureMatrix x) {
        double[] l1;
        if (x instanceof CsrMatrix s) {
            l1 = s.rowL1Norms();
        } else {
            DenseMatrix dense = x.toDense();
            l1 = new double[x.rows()];
            double[] a = dense.data();
            int n = dense.rows();
            for (int j = 0; j < dense.cols(); j++) {
                for (int i = 0; i < n; i++) {
                    l1[i] += Math.abs(a[i + j * n]);
                }
            }
        }
        double[] f = new double[l1.length];
        for (int i = 0; i < f.length; i++) {
            f[i] = l1[i] > 0 ? 1.0 / l1[i] : 1.0;
        }
        return f;
    }
}
