package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;

/**
 * {@link AdaSsp} and {@link RandomProjection}: the noiseless release's ridge solution equals ridge regression on
 * {@code [x, 1]} and one-hot labels solved directly; the ridge is never negative; the projection is a function of its
 * seed alone, maps models back consistently, and never holds a d x d (or d x p) matrix for large d.
 */
class AdaSspTest {
    static DenseMatrix randomRows(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = r.nextGaussian();
            }
        }
        return DenseMatrix.fromRows(x);
    }

    static int[] labels(int n, int k) {
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = (i * 7) % k;
        }
        return y;
    }

    @Test
    void theNoiselessSolutionIsRidgeRegressionOnAugmentedRowsAndOneHotLabels() {
        int n = 40;
        int d = 5;
        int k = 3;
        DenseMatrix x = randomRows(n, d, 3);
        int[] y = labels(n, k);
        AdaSsp exact = AdaSsp.exact(x, y, k);
        // direct: Xa = [X, 1], Y one-hot, theta = (Xa^T Xa + lambda I)^-1 Xa^T Y by Cholesky
        DenseMatrix xa = DenseMatrix.zeros(n, d + 1);
        DenseMatrix oneHot = DenseMatrix.zeros(n, k);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                xa.set(i, j, x.get(i, j));
            }
            xa.set(i, d, 1.0);
            oneHot.set(i, y[i], 1.0);
        }
        assertThat(exact.moment().minus(LinAlg.multiplyTransA(xa, xa)).maxAbs()).isLessThan(1e-10);
        assertThat(exact.cross().minus(LinAlg.multiplyTransA(xa, oneHot)).maxAbs()).isLessThan(1e-10);
        assertThat(exact.eigen()).isCloseTo(LinAlg.eigenvalues(LinAlg.multiplyTransA(xa, xa))[0], within(1e-9));
        for (double lambda : new double[] {0.0, 0.7, 25.0}) {
            DenseMatrix a = LinAlg.multiplyTransA(xa, xa).plusIdentity(lambda);
            DenseMatrix l = LinAlg.cholesky(a);
            DenseMatrix b = LinAlg.multiplyTransA(xa, oneHot);
            DenseMatrix direct = solveCholesky(l, b);
            DenseMatrix theta = exact.ridge(lambda, 1e-12);
            assertThat(theta.minus(direct).maxAbs()).as("lambda %s", lambda).isLessThan(1e-9 * (1 + direct.maxAbs()));
        }
        // the network of the identity projection scores x W + b = [x, 1] theta
        DenseMatrix theta = exact.ridge(0.7, 1e-12);
        Network net = AdaSsp.network(theta, new RandomProjection(1, d, d), List.of("a", "b", "c"));
        DenseMatrix scores = net.forward(x).logits();
        DenseMatrix expect = xa.multiply(theta);
        assertThat(scores.minus(expect).maxAbs()).isLessThan(1e-9);
    }

    /** Solves L L^T X = B by forward and back substitution. */
    static DenseMatrix solveCholesky(DenseMatrix l, DenseMatrix b) {
        int q = l.rows();
        DenseMatrix out = b.copy();
        for (int c = 0; c < b.cols(); c++) {
            double[] v = out.columnCopy(c);
            for (int i = 0; i < q; i++) {
                double s = v[i];
                for (int j = 0; j < i; j++) {
                    s -= l.get(i, j) * v[j];
                }
                v[i] = s / l.get(i, i);
            }
            for (int i = q - 1; i >= 0; i--) {
                double s = v[i];
                for (int j = i + 1; j < q; j++) {
                    s -= l.get(j, i) * v[j];
                }
                v[i] = s / l.get(i, i);
            }
            out.setColumn(c, v);
        }
        return out;
    }

    @Test
    void theRidgeIsNeverNegativeAndShrinksAsTheReleasedEigenvalueGrows() {
        SplittableRandom r = new SplittableRandom(9);
        double prev = Double.POSITIVE_INFINITY;
        for (double e : new double[] {-1e6, -3, 0, 1, 10, 100, 1e3, 1e4, 1e9}) {
            double lambda = AdaSsp.ridgeLambda(e, 5.0, 2.0, 65, 1.0);
            assertThat(lambda).as("eigen %s", e).isGreaterThanOrEqualTo(0.0).isLessThanOrEqualTo(prev);
            prev = lambda;
        }
        assertThat(AdaSsp.ridgeLambda(1e9, 5.0, 2.0, 65, 1.0)).isZero();
        // with a non-positive released eigenvalue, the ridge is the whole spectral bound of the moment's noise
        assertThat(AdaSsp.ridgeLambda(-4, 5.0, 2.0, 65, 1.0))
                .isCloseTo(5.0 * (Math.sqrt(130) + Math.sqrt(2 * Math.log(1 / AdaSsp.RHO))), within(1e-12));
        for (int t = 0; t < 1000; t++) {
            double lambda = AdaSsp.ridgeLambda(r.nextGaussian() * 1e3, r.nextDouble() * 10, r.nextDouble() * 10, 1 + r.nextInt(500),
                    r.nextDouble() * 3);
            assertThat(lambda).isGreaterThanOrEqualTo(0.0);
        }
    }

    @Test
    void theNoisyMomentIsSymmetricAndItsRidgeSolvable() {
        DenseMatrix x = randomRows(30, 6, 5);
        AdaSsp exact = AdaSsp.exact(AdaSsp.boundRows(x, 2.0, true), labels(30, 4), 4);
        AdaSsp.Sensitivities s = AdaSsp.sensitivities(NeighbouringRelation.ADD_OR_REMOVE_ONE, 2.0);
        AdaSsp noisy = exact.withNoise(3.0, 1.5, 6.0, s, new SeededRandomness(4));
        assertThat(noisy.moment().asymmetry()).isZero();
        double lambda = AdaSsp.ridgeLambda(noisy.eigen(), 3.0 * s.moment(), 6.0 * s.eigen(), noisy.dimension(), 1.0);
        DenseMatrix theta = noisy.ridge(lambda, 3.0 * s.moment());
        assertThat(theta.rows()).isEqualTo(7);
        assertThat(theta.cols()).isEqualTo(4);
        assertThat(theta.firstNonFinite()).isNull();
        assertThatThrownBy(() -> exact.withNoise(Double.POSITIVE_INFINITY, 1, 1, s, new SeededRandomness(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theProjectionIsItsSeedsAndMapsModelsBackConsistently() {
        DenseMatrix x = randomRows(12, 5000, 7);
        RandomProjection p = new RandomProjection(44, 5000, 32);
        FeatureMatrix z = p.apply(x);
        assertThat(z.rows()).isEqualTo(12);
        assertThat(z.cols()).isEqualTo(32);
        assertThat(new RandomProjection(44, 5000, 32).apply(x).toDense().minus(z.toDense()).maxAbs()).isZero();
        assertThat(new RandomProjection(45, 5000, 32).apply(x).toDense().minus(z.toDense()).maxAbs()).isGreaterThan(0.1);
        // norms are preserved in expectation: E ||x P||^2 = ||x||^2; each ratio is chi^2_32 / 32 (sd 0.25), their mean
        // over the 12 rows has sd 0.07: within 0.25 of 1 (3.5 sd)
        double[] before = x.rowSquaredNorms();
        double[] after = z.rowSquaredNorms();
        double mean = 0;
        for (int i = 0; i < 12; i++) {
            mean += after[i] / before[i] / 12;
        }
        assertThat(mean).isBetween(0.75, 1.25);
        DenseMatrix w = randomRows(32, 3, 8);
        DenseMatrix back = p.backProject(w);
        assertThat(back.rows()).isEqualTo(5000);
        assertThat(x.multiply(back).minus(z.toDense().multiply(w)).maxAbs()).isLessThan(1e-9 * (1 + x.multiply(back).maxAbs()));
        // P whole (for callers that project many small batches) is the matrix apply draws block by block
        DenseMatrix whole = p.matrix();
        assertThat(whole.rows()).isEqualTo(5000);
        assertThat(whole.cols()).isEqualTo(32);
        assertThat(x.multiply(whole).minus(z.toDense()).maxAbs()).isLessThan(1e-12 * (1 + z.toDense().maxAbs()));
        // identity when p >= d
        RandomProjection id = new RandomProjection(1, 20, 64);
        assertThat(id.identity()).isTrue();
        assertThat(id.outputDim()).isEqualTo(20);
        DenseMatrix small = randomRows(3, 20, 1);
        assertThat(id.apply(small)).isSameAs(small);
        assertThat(id.matrix().minus(DenseMatrix.identity(20)).maxAbs()).isZero();
        assertThat(id.peakProjectionBytes()).isZero();
    }

    @Test
    void theLargeDimensionalPathNeverBuildsADByDMatrix() {
        // d = 400,000 sparse: a d x d moment would be 1.3e12 bytes, a d x p projection 8e8; the release holds one
        // block of P (2048 x p) at a time and a (p+1) x (p+1) moment
        int d = 400_000;
        int n = 60;
        int p = 24;
        SplittableRandom r = new SplittableRandom(2);
        int[] rowStart = new int[n + 1];
        int nnzPerRow = 30;
        int[] col = new int[n * nnzPerRow];
        double[] val = new double[n * nnzPerRow];
        for (int i = 0; i < n; i++) {
            rowStart[i + 1] = rowStart[i] + nnzPerRow;
            int c = r.nextInt(1000);
            for (int t = 0; t < nnzPerRow; t++) {
                c += 1 + r.nextInt(d / nnzPerRow - 1000);
                col[i * nnzPerRow + t] = Math.min(c, d - 1 - (nnzPerRow - 1 - t));
                val[i * nnzPerRow + t] = r.nextDouble();
            }
        }
        CsrMatrix x = new CsrMatrix(n, d, rowStart, col, val);
        RandomProjection proj = new RandomProjection(44, d, p);
        assertThat(proj.peakProjectionBytes()).isEqualTo(8L * RandomProjection.BLOCK * p);
        FeatureMatrix z = AdaSsp.boundRows(proj.apply(x), 1.0, true);
        AdaSsp exact = AdaSsp.exact(z, labels(n, 2), 2);
        assertThat(exact.dimension()).isEqualTo(p + 1);
        AdaSsp noisy = exact.withNoise(2, 2, 2, AdaSsp.sensitivities(NeighbouringRelation.ADD_OR_REMOVE_ONE, 1.0), new SeededRandomness(3));
        DenseMatrix theta = noisy.ridge(AdaSsp.ridgeLambda(noisy.eigen(), 4, 4, p + 1, 1.0), 4);
        Network net = AdaSsp.network(theta, proj, List.of("a", "b"));
        // the model is d x K in the input space, and scores the sparse rows as the projected rows with theta
        DenseMatrix scores = net.forward(x).logits();
        DenseMatrix zRaw = proj.apply(x).toDense();
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < 2; c++) {
                double s = theta.get(p, c);
                for (int j = 0; j < p; j++) {
                    s += zRaw.get(i, j) * theta.get(j, c);
                }
                assertThat(scores.get(i, c)).isCloseTo(s, within(1e-9 * (1 + Math.abs(s))));
            }
        }
    }
}
