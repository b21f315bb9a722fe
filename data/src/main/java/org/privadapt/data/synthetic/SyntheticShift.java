package org.privadapt.data.synthetic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Dataset;
import org.privadapt.data.Provenance;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

/**
 * A generated two-domain classification problem with a real covariate shift: class-conditional Gaussians in
 * {@code d} dimensions (random class means on a sphere, one shared, nearly isotropic covariance); the target
 * domain is the same distribution pushed through {@code x -> A x + b} with {@code A = V diag(s) V^T}: a stretch by
 * factors from 1/stretch to stretch along random orthogonal axes V (so features become correlated), and a
 * shift b. p(y | x) changes, p(y) does not. Because A is symmetric positive definite and the source covariance
 * nearly isotropic, the second-order statistics identify A, which is the situation correlation alignment is
 * made for (a general linear map would be identifiable only up to a rotation). Everything is drawn from one seeded {@link SplittableRandom}, so a seed fixes the problem.
 */
public final class SyntheticShift {

    /**
     * @param dimension      number of features d
     * @param classes        number of classes
     * @param sourcePerClass source examples per class
     * @param targetPerClass target examples per class
     * @param separation     radius of the sphere the class means lie on (in within-class standard deviations)
     * @param stretch        largest rescaling factor of the target map (>= 1)
     * @param shift          length of the target translation
     */
    public record Config(int dimension, int classes, int sourcePerClass, int targetPerClass, double separation,
                         double stretch, double shift) {
        public static Config demo() {
            return new Config(10, 4, 150, 150, 3.0, 8.0, 3.0);
        }
    }

    /** Source (labelled) and target (labelled, for evaluation) domains. */
    public record Problem(Dataset source, Dataset target, DenseMatrix map, double[] translation) {
    }

    private SyntheticShift() {
    }

    public static Problem generate(Config c, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int d = c.dimension();
        DenseMatrix means = DenseMatrix.zeros(c.classes(), d);
        for (int k = 0; k < c.classes(); k++) {
            double[] m = gaussianVector(rng, d);
            double norm = Math.sqrt(dot(m, m));
            for (int j = 0; j < d; j++) {
                means.set(k, j, c.separation() * m[j] / norm);
            }
        }
        // shared within-class covariance factor L (x = mean + L z), eigenvalues in [0.8, 1.2]
        DenseMatrix q = randomRotation(rng, d);
        double[] ev = new double[d];
        for (int j = 0; j < d; j++) {
            ev[j] = Math.sqrt(0.8 + 0.4 * rng.nextDouble());
        }
        DenseMatrix chol = LinAlg.multiply(q, DenseMatrix.diagonal(ev));
        // target map A = V diag(s) V^T (a stretch along random orthogonal axes) and shift b
        DenseMatrix v = randomRotation(rng, d);
        double[] s = new double[d];
        double logStretch = Math.log(Math.max(1.0, c.stretch()));
        for (int j = 0; j < d; j++) {
            s[j] = Math.exp(logStretch * (2.0 * j / Math.max(1, d - 1) - 1.0));
        }
        DenseMatrix a = LinAlg.multiplyTransB(LinAlg.multiply(v, DenseMatrix.diagonal(s)), v);
        double[] b = gaussianVector(rng, d);
        double bn = Math.sqrt(dot(b, b));
        for (int j = 0; j < d; j++) {
            b[j] = c.shift() * b[j] / bn;
        }
        Dataset source = sample(rng, c, means, chol, null, null, c.sourcePerClass(), "synthetic/source", seed);
        Dataset target = sample(rng, c, means, chol, a, b, c.targetPerClass(), "synthetic/target", seed);
        return new Problem(source, target, a, b);
    }

    private static Dataset sample(SplittableRandom rng, Config c, DenseMatrix means, DenseMatrix chol, DenseMatrix a,
                                  double[] b, int perClass, String domain, long seed) {
        int d = c.dimension();
        int n = perClass * c.classes();
        DenseMatrix x = DenseMatrix.zeros(n, d);
        int[] y = new int[n];
        int row = 0;
        for (int k = 0; k < c.classes(); k++) {
            for (int r = 0; r < perClass; r++) {
                double[] z = LinAlg.multiply(chol, gaussianVector(rng, d));
                for (int j = 0; j < d; j++) {
                    z[j] += means.get(k, j);
                }
                if (a != null) {
                    z = LinAlg.multiply(a, z);
                    for (int j = 0; j < d; j++) {
                        z[j] += b[j];
                    }
                }
                x.setRow(row, z);
                y[row++] = k;
            }
        }
        List<String> names = new ArrayList<>();
        for (int k = 0; k < c.classes(); k++) {
            names.add("class" + k);
        }
        // the size and the class set are the generator's parameters: public (PublicFacts)
        String why = "generated: a parameter of the generator";
        return new Dataset(domain, x, new ClassLabels(y, names), null, Provenance.generated(
                "SyntheticShift " + c + ", seed " + seed + (a == null ? ", source domain" : ", target domain x -> A x + b")),
                new org.privadapt.data.PublicFacts(why, why, null, false));
    }

    static double[] gaussianVector(SplittableRandom rng, int d) {
        double[] v = new double[d];
        for (int j = 0; j < d; j += 2) {
            // Box-Muller: two independent standard normals per pair of uniforms
            double u1 = 1.0 - rng.nextDouble();
            double u2 = rng.nextDouble();
            double r = Math.sqrt(-2.0 * Math.log(u1));
            v[j] = r * Math.cos(2 * Math.PI * u2);
            if (j + 1 < d) {
                v[j + 1] = r * Math.sin(2 * Math.PI * u2);
            }
        }
        return v;
    }

    /** A Haar-random orthogonal matrix: Gram-Schmidt on a Gaussian matrix. */
    static DenseMatrix randomRotation(SplittableRandom rng, int d) {
        DenseMatrix m = DenseMatrix.zeros(d, d);
        for (int j = 0; j < d; j++) {
            double[] col = gaussianVector(rng, d);
            for (int p = 0; p < j; p++) {
                double[] prev = m.columnCopy(p);
                double proj = dot(prev, col);
                for (int i = 0; i < d; i++) {
                    col[i] -= proj * prev[i];
                }
            }
            double norm = Math.sqrt(dot(col, col));
            for (int i = 0; i < d; i++) {
                col[i] /= norm;
            }
            m.setColumn(j, col);
        }
        return m;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
