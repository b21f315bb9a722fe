package org.privadapt.math;

/**
 * What a {@link DenseMatrix} reduces to: its diagonal and trace, norms (Frobenius, largest entry, squared row
 * norms), column means, how far it is from symmetric, and where its first non-finite entry is; with the two
 * in-place symmetric repairs (averaging with the transpose, mirroring the upper triangle). {@link DenseMatrix}
 * keeps the public methods and delegates to these.
 */
final class DenseReductions {
    private DenseReductions() {
    }

    static double[] diagonal(DenseMatrix a) {
        int rows = a.rows();
        double[] data = a.data();
        int n = Math.min(rows, a.cols());
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = data[i + i * rows];
        }
        return d;
    }

    static double trace(DenseMatrix a) {
        a.requireSquare();
        int rows = a.rows();
        double[] data = a.data();
        double t = 0;
        for (int i = 0; i < rows; i++) {
            t += data[i + i * rows];
        }
        return t;
    }

    static double frobeniusNorm(DenseMatrix a) {
        double[] data = a.data();
        // scaled sum of squares avoids overflow for huge entries
        double scale = 0;
        for (double v : data) {
            scale = Math.max(scale, Math.abs(v));
        }
        if (scale == 0 || !Double.isFinite(scale)) {
            return scale;
        }
        double s = 0;
        for (double v : data) {
            double t = v / scale;
            s += t * t;
        }
        return scale * Math.sqrt(s);
    }

    static double maxAbs(DenseMatrix a) {
        double m = 0;
        for (double v : a.data()) {
            m = Math.max(m, Math.abs(v));
        }
        return m;
    }

    static double asymmetry(DenseMatrix a) {
        a.requireSquare();
        int rows = a.rows();
        int cols = a.cols();
        double[] data = a.data();
        double m = 0;
        for (int j = 0; j < cols; j++) {
            for (int i = j + 1; i < rows; i++) {
                m = Math.max(m, Math.abs(data[i + j * rows] - data[j + i * rows]));
            }
        }
        return m;
    }

    static void symmetrizeInPlace(DenseMatrix a) {
        a.requireSquare();
        int rows = a.rows();
        int cols = a.cols();
        double[] data = a.data();
        for (int j = 0; j < cols; j++) {
            for (int i = j + 1; i < rows; i++) {
                double v = 0.5 * (data[i + j * rows] + data[j + i * rows]);
                data[i + j * rows] = v;
                data[j + i * rows] = v;
            }
        }
    }

    static void mirrorUpperInPlace(DenseMatrix a) {
        a.requireSquare();
        int rows = a.rows();
        int cols = a.cols();
        double[] data = a.data();
        for (int j = 0; j < cols; j++) {
            for (int i = j + 1; i < rows; i++) {
                data[i + j * rows] = data[j + i * rows];
            }
        }
    }

    static double[] columnMeans(DenseMatrix a) {
        int rows = a.rows();
        int cols = a.cols();
        double[] data = a.data();
        double[] m = new double[cols];
        if (rows == 0) {
            return m;
        }
        for (int j = 0; j < cols; j++) {
            double s = 0;
            int off = j * rows;
            for (int i = 0; i < rows; i++) {
                s += data[off + i];
            }
            m[j] = s / rows;
        }
        return m;
    }

    static double[] rowSquaredNorms(DenseMatrix a) {
        int rows = a.rows();
        int cols = a.cols();
        double[] data = a.data();
        double[] s = new double[rows];
        for (int j = 0; j < cols; j++) {
            int off = j * rows;
            for (int i = 0; i < rows; i++) {
                double v = data[off + i];
                s[i] += v * v;
            }
        }
        return s;
    }

    static int[] firstNonFinite(DenseMatrix a) {
        int rows = a.rows();
        double[] data = a.data();
        for (int k = 0; k < data.length; k++) {
            if (!Double.isFinite(data[k])) {
                return new int[] {k % Math.max(rows, 1), k / Math.max(rows, 1)};
            }
        }
        return null;
    }
}
