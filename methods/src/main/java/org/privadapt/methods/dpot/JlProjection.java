package org.privadapt.methods.dpot;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The Johnson-Lindenstrauss matrix of DPOT (paper 002, Alg. 1 step 1): M in R^{k x l} with i.i.d. N(0, 1/l)
 * entries. It is data-independent and published with the release. Two norms of it set the sensitivities:
 * <ul>
 *   <li>{@link #maxRowNorm()} w = max_i ||M_i.||_2: how far x M moves when one attribute of x changes by at most 1
 *       (Kenthapadi et al. 2013; the paper's w, concentrated around 1);</li>
 *   <li>{@link #spectralNorm()} ||M||_2: how far x M moves when x changes arbitrarily within the L2 ball, about
 *       (sqrt(k) + sqrt(l)) / sqrt(l) for a Gaussian matrix; it is computed exactly from the l x l Gram matrix.</li>
 * </ul>
 */
public record JlProjection(DenseMatrix matrix, double maxRowNorm, double spectralNorm) {

    /** Draws M from the given noise source (secure by default; its entries are public once released). */
    public static JlProjection draw(int k, int l, NoiseSource noise) {
        if (k < 1 || l < 1) {
            throw new IllegalArgumentException("projection needs k, l >= 1, got " + k + " x " + l);
        }
        double[] a = new double[k * l];
        double s = 1.0 / Math.sqrt(l);
        for (int i = 0; i < a.length; i++) {
            a[i] = s * noise.vectors().nextStandard();
        }
        return of(new DenseMatrix(k, l, a));
    }

    /** Wraps a given matrix (e.g. read from a release), computing its norms. */
    public static JlProjection of(DenseMatrix m) {
        double w = 0;
        for (int i = 0; i < m.rows(); i++) {
            double r = 0;
            for (int j = 0; j < m.cols(); j++) {
                r += m.get(i, j) * m.get(i, j);
            }
            w = Math.max(w, Math.sqrt(r));
        }
        double[] ev = LinAlg.eigenvalues(m.transposeMultiply(m));
        double top = 0;
        for (double e : ev) {
            top = Math.max(top, e);
        }
        // a tiny relative margin so that rounding in the eigensolver never understates the norm
        return new JlProjection(m, w, Math.sqrt(top) * (1 + 1e-12));
    }

    public int inputDim() {
        return matrix.rows();
    }

    public int outputDim() {
        return matrix.cols();
    }
}
