package org.privadapt.methods.bassily;

import java.util.Arrays;
import java.util.Set;
import java.util.SplittableRandom;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.Labels;
import org.privadapt.data.RealTargets;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;

/**
 * Paper 003's supervised protocol (public labelled source, private labelled target): the target's labelled pool (the
 * task's evaluation rows) is cut at random into a test part, a validation part, optionally a part handed to the
 * source (Amazon's "500 source-domain + 200 target-domain" source), and the private training part S_priv of n rows,
 * in that order, so that with one seed a larger {@code target-train} keeps the same test and validation rows (the
 * privacy curves). The source may be subsampled without replacement ({@code source-rows}). Every draw is public
 * randomness from the run's seed; one seed gives every method the same split, so results pair up run by run.
 *
 * <p>Privacy roles: the source and the source-from-target rows are public; the validation rows are declared public
 * (a disjoint, public target-domain sample, as the paper's Amazon protocol's 50 validation reviews): hyperparameters are
 * chosen on them at no privacy cost; the training rows are the private dataset the guarantee is about (replace-one,
 * n public); the test rows only score the released model.
 *
 * <p>Scaling ({@link Scaling}) uses constants computed from the public source only, applied row by row to every part,
 * so it is not a release of private data.
 */
public record SupervisedProtocol(DenseMatrix xSource, Labels ySource, DenseMatrix xTrain, Labels yTrain,
                                 DenseMatrix xValidation, Labels yValidation, DenseMatrix xTest, Labels yTest,
                                 Scaling scaling, int[] testRows, int n) {
    /**
     * {@code xTrain} and {@code yTrain} are null when the private training part S_priv is not in this process (its rows
     * on a cluster: the spark module's {@code SparkSupervised}); {@code n} is its size either way (public: replace-one).
     */
    public SupervisedProtocol {
        if ((xTrain == null) != (yTrain == null) || (xTrain != null && xTrain.rows() != n) || n < 1) {
            throw new IllegalArgumentException("the private training part: rows and targets both or neither, n = its rows >= 1");
        }
    }

    /** A protocol whose private training part is in this process. */
    public SupervisedProtocol(DenseMatrix xSource, Labels ySource, DenseMatrix xTrain, Labels yTrain, DenseMatrix xValidation,
                              Labels yValidation, DenseMatrix xTest, Labels yTest, Scaling scaling, int[] testRows) {
        this(xSource, ySource, xTrain, yTrain, xValidation, yValidation, xTest, yTest, scaling, testRows, xTrain.rows());
    }

    /** The {@code --param} names of the protocol. */
    public static final Set<String> PARAMETERS = Set.of("target-train", "target-validation", "target-test", "source-rows",
            "source-from-target");

    /** Whether a method that also knows another protocol should use this one. */
    public static boolean requested(AdaptationTask task, MethodConfig config) {
        return task.evaluation().labels().orElse(null) instanceof RealTargets || config.params().containsKey("target-train");
    }

    public boolean isRegression() {
        return yTest instanceof RealTargets;
    }

    /**
     * Draws the split for the run's seed and scales every part with the public source's constants.
     *
     * @throws IllegalArgumentException when the requested sizes do not fit in the pool
     */
    public static SupervisedProtocol draw(AdaptationTask task, MethodConfig config) throws DataException {
        Dataset pool = task.evaluation();
        if (!pool.hasLabels()) {
            throw new DataException(pool.firstFile(), null, "paper 003's protocol needs the target's labels (its private "
                    + "training rows are labelled)");
        }
        if (pool.labels().orElseThrow() instanceof org.privadapt.data.MultiLabels
                || task.source().labels().orElse(null) instanceof org.privadapt.data.MultiLabels) {
            throw new IllegalArgumentException("paper 003's supervised protocol does not support multi-label targets");
        }
        Split split = split(pool.size(), config);
        return assemble(task.source(), split, split.publicRows(pool), pool.selectRows(split.train(), "private training rows"),
                config);
    }

    /**
     * The split of a pool of {@code size} rows (public: replace-one) into test, validation, source-from-target and
     * private training rows, by index, in the order the protocol draws them: public randomness from the seed only.
     */
    public record Split(int poolSize, int[] test, int[] validation, int[] toSource, int[] train) {
        /** The public parts' rows of {@code pool} (test, then validation, then source-from-target), in that order. */
        public Dataset publicRows(Dataset pool) {
            return pool.selectRows(publicIndices(), "public target rows");
        }

        /** Test, validation and source-from-target indices, concatenated in that order. */
        public int[] publicIndices() {
            int[] all = Arrays.copyOf(test, test.length + validation.length + toSource.length);
            System.arraycopy(validation, 0, all, test.length, validation.length);
            System.arraycopy(toSource, 0, all, test.length + validation.length, toSource.length);
            return all;
        }
    }

    /** The split for the run's seed and the requested sizes ({@code target-test}, ...) of a pool of {@code size} rows. */
    public static Split split(int size, MethodConfig config) {
        int test = config.intParam("target-test", (int) Math.min(2000, Math.round(0.4 * size)));
        int validation = config.intParam("target-validation", (int) Math.min(1000, Math.round(0.2 * size)));
        int toSource = config.intParam("source-from-target", 0);
        int train = config.intParam("target-train", size - test - validation - toSource);
        if (test < 1 || validation < 2 || train < 1 || toSource < 0) {
            throw new IllegalArgumentException("need target-test >= 1, target-validation >= 2, target-train >= 1 and "
                    + "source-from-target >= 0, got " + test + ", " + validation + ", " + train + ", " + toSource);
        }
        if ((long) test + validation + toSource + train > size) {
            throw new IllegalArgumentException("target-test + target-validation + source-from-target + target-train = "
                    + ((long) test + validation + toSource + train) + " rows, but the target pool has " + size
                    + " (rows are drawn without replacement: one record never counts twice)");
        }
        int[] perm = permutation(size, splitRandom(config));
        int[] testRows = Arrays.copyOfRange(perm, 0, test);
        int[] valRows = Arrays.copyOfRange(perm, test, test + validation);
        int[] srcRows = Arrays.copyOfRange(perm, test + validation, test + validation + toSource);
        int[] trainRows = Arrays.copyOfRange(perm, test + validation + toSource, test + validation + toSource + train);
        return new Split(size, testRows, valRows, srcRows, trainRows);
    }

    /**
     * The protocol from its parts: the public source (subsampled with {@code source-rows}), the pool's public rows
     * ({@link Split#publicRows}: test, validation, source-from-target, in that order) and the private training rows,
     * or null when they are elsewhere (then {@code xTrain}/{@code yTrain} are null and only n is known). The scaling's
     * constants come from the public source only.
     */
    public static SupervisedProtocol assemble(Dataset source, Split split, Dataset publicRows, Dataset trainRows,
                                              MethodConfig config) throws DataException {
        int test = split.test().length;
        int validation = split.validation().length;
        int toSource = split.toSource().length;
        if (publicRows.size() != test + validation + toSource || (trainRows != null && trainRows.size() != split.train().length)) {
            throw new IllegalArgumentException("the parts' rows do not match the split");
        }
        SplittableRandom rng = splitRandom(config);
        permutation(split.poolSize(), rng); // the source subsample draws from the same stream, after the pool's permutation
        int sourceRows = config.intParam("source-rows", source.size());
        if (sourceRows < 1 || sourceRows > source.size()) {
            throw new IllegalArgumentException("source-rows must be in [1, " + source.size() + "], got " + sourceRows);
        }
        if (sourceRows < source.size()) {
            int[] p = permutation(source.size(), rng);
            int[] keep = Arrays.copyOf(p, sourceRows);
            Arrays.sort(keep);
            source = source.selectRows(keep, "source subsample");
        }
        DenseMatrix xs = source.features().toDense();
        Labels ys = source.labels().orElseThrow();
        int[] testPart = range(0, test);
        int[] valPart = range(test, test + validation);
        int[] srcPart = range(test + validation, test + validation + toSource);
        if (toSource > 0) {
            Dataset extra = publicRows.selectRows(srcPart, "target rows given to the source");
            xs = xs.vstack(extra.features().toDense());
            ys = concat(ys, extra.labels().orElseThrow());
        }
        boolean regression = ys instanceof RealTargets;
        Scaling sc = Scaling.fromPublicSource(xs, regression ? ((RealTargets) ys).values() : null);
        Labels pub = publicRows.labels().orElseThrow();
        return new SupervisedProtocol(sc.features(xs), sc.targets(ys),
                trainRows == null ? null : sc.features(trainRows.features().toDense()),
                trainRows == null ? null : sc.targets(trainRows.labels().orElseThrow()),
                sc.features(rows(publicRows, valPart)), sc.targets(pub.selectRows(valPart)),
                sc.features(rows(publicRows, testPart)), pub.selectRows(testPart), sc, split.test().clone(), split.train().length);
    }

    /** The protocol's public randomness: the pool's permutation, then the source's subsample. */
    private static SplittableRandom splitRandom(MethodConfig config) {
        return new SplittableRandom(config.seed() * 0x9E3779B97F4A7C15L + 0x3c6ef372fe94f82aL);
    }

    private static int[] range(int from, int to) {
        int[] r = new int[to - from];
        for (int i = 0; i < r.length; i++) {
            r[i] = from + i;
        }
        return r;
    }

    private static DenseMatrix rows(Dataset d, int[] idx) {
        return d.features().selectRows(idx).toDense();
    }

    private static int[] permutation(int n, SplittableRandom rng) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    private static Labels concat(Labels a, Labels b) {
        if (a instanceof RealTargets ra && b instanceof RealTargets rb) {
            double[] v = Arrays.copyOf(ra.values(), ra.size() + rb.size());
            System.arraycopy(rb.values(), 0, v, ra.size(), rb.size());
            return new RealTargets(v, ra.name());
        }
        if (a instanceof ClassLabels ca && b instanceof ClassLabels cb) {
            if (!ca.names().equals(cb.names())) {
                throw new IllegalArgumentException("source and target class sets differ: " + ca.names() + " vs " + cb.names());
            }
            int[] c = Arrays.copyOf(ca.codes(), ca.size() + cb.size());
            System.arraycopy(cb.codes(), 0, c, ca.size(), cb.size());
            return new ClassLabels(c, ca.names());
        }
        throw new IllegalArgumentException("source and target labels are of different kinds");
    }

    /**
     * Row-local scaling with constants from the public source: each feature centred and divided by its source standard
     * deviation (1 when constant), a constant feature 1 appended (the linear predictors' intercept), and every row
     * divided by the 95th percentile c of the source rows' norms, so that most rows have norm &lt;= 1 (the methods clip the
     * rest); regression targets centred at the source mean and divided by the largest absolute centred source target,
     * so the source's lie in [-1, 1]. Predictions map back with {@link #unscale}.
     */
    public record Scaling(double[] mean, double[] sd, double rowScale, double targetMean, double targetScale) {
        static Scaling fromPublicSource(DenseMatrix x, double[] y) {
            int n = x.rows();
            int d = x.cols();
            double[] mean = x.columnMeans();
            double[] sd = new double[d];
            double[] data = x.data();
            for (int j = 0; j < d; j++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    double e = data[i + j * n] - mean[j];
                    s += e * e;
                }
                sd[j] = n > 1 && s > 0 ? Math.sqrt(s / (n - 1)) : 1.0;
            }
            Scaling unit = new Scaling(mean, sd, 1.0, 0, 1);
            double[] norms = unit.features(x).rowSquaredNorms();
            for (int i = 0; i < norms.length; i++) {
                norms[i] = Math.sqrt(norms[i]);
            }
            Arrays.sort(norms);
            double c = norms[Math.min(norms.length - 1, (int) Math.floor(0.95 * norms.length))];
            double ym = 0;
            double ys = 1;
            if (y != null) {
                for (double v : y) {
                    ym += v;
                }
                ym /= y.length;
                double mx = 0;
                for (double v : y) {
                    mx = Math.max(mx, Math.abs(v - ym));
                }
                ys = mx > 0 ? mx : 1;
            }
            return new Scaling(mean, sd, c > 0 ? c : 1.0, ym, ys);
        }

        /** The scaled rows with the constant feature appended: d + 1 columns. */
        public DenseMatrix features(DenseMatrix x) {
            int n = x.rows();
            int d = x.cols();
            if (d != mean.length) {
                throw new IllegalArgumentException("rows have " + d + " features, the scaling " + mean.length);
            }
            double[] out = new double[n * (d + 1)];
            double[] in = x.data();
            for (int j = 0; j < d; j++) {
                double m = mean[j];
                double f = 1.0 / (sd[j] * rowScale);
                for (int i = 0; i < n; i++) {
                    out[i + j * n] = (in[i + j * n] - m) * f;
                }
            }
            Arrays.fill(out, d * n, (d + 1) * n, 1.0 / rowScale);
            return new DenseMatrix(n, d + 1, out);
        }

        /** Regression targets scaled; class labels unchanged. */
        public Labels targets(Labels y) {
            if (y instanceof RealTargets r) {
                double[] v = r.values();
                for (int i = 0; i < v.length; i++) {
                    v[i] = (v[i] - targetMean) / targetScale;
                }
                return new RealTargets(v, r.name());
            }
            return y;
        }

        /** Scaled predictions back in the targets' units. */
        public double[] unscale(double[] p) {
            double[] out = new double[p.length];
            for (int i = 0; i < p.length; i++) {
                out[i] = p[i] * targetScale + targetMean;
            }
            return out;
        }
    }
}
