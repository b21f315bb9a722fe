package org.privadapt.spark;

import java.io.Serializable;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.storage.StorageLevel;
import org.privadapt.data.DataException;
import org.privadapt.data.Provenance;
import org.privadapt.data.RealTargets;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.bassily.NoisyGradientDescent;
import org.privadapt.methods.bassily.PrivateSample;
import org.privadapt.methods.bassily.PublicSubspace;
import org.privadapt.methods.bassily.StatisticsPCnvxAdap;
import org.privadapt.methods.bassily.SupervisedProtocol;
import org.privadapt.methods.core.MethodConfig;
import scala.Tuple3;

/**
 * Paper 003's supervised protocol with the target's pool on Spark (issue 31): the split is the in-process one
 * ({@link SupervisedProtocol#split}: public randomness from the seed over the pool's size, public under replace-one),
 * by the rows' positions in the table's order (a file's order when Spark reads it in order). The public parts (test
 * rows, which only score; validation rows, declared public; rows handed to the source) come to the driver, at most a
 * few thousand rows by default; the private training part S_priv stays where it is, and the releases' exact sums over
 * it ({@link PrivateSample}) are aggregates over its rows, each row mapped there by the protocol's public scaling and
 * the public reduction (row-local maps whose constants come from the public source) and clipped as in process. The
 * plan, the charge and the noise are the method's, on the driver ({@code DpTargetOnlyMethod.regression},
 * {@code StatisticsPCnvxAdapMethod.fit}). With the rows in the same order, the run equals the in-process one on the
 * same seed, up to the summation's rounding.
 */
public final class SparkSupervised {
    private SparkSupervised() {
    }

    /** The protocol's public parts (with n, no private rows) and the private sample on Spark. */
    public record Drawn(SupervisedProtocol protocol, PrivateSample sample) {
    }

    /**
     * Draws the split over the pool's rows and assembles the protocol with the public {@code source} (in this process).
     * The pool is checked first as in process (rows present, finite, every target a number), before anything is charged.
     */
    public static Drawn draw(org.privadapt.data.Dataset source, SparkTable pool, MethodConfig config) throws DataException {
        int size = SparkBassily.validRows(pool);
        SupervisedProtocol.Split split = SupervisedProtocol.split(size, config);
        org.privadapt.data.Dataset pub = rows(pool, split.publicIndices(), "target");
        SupervisedProtocol p = SupervisedProtocol.assemble(source, split, pub, null, config);
        int[] train = split.train().clone();
        Arrays.sort(train);
        return new Drawn(p, new Sample(pool, train, p.scaling(), p.n()));
    }

    /**
     * The table's rows at positions {@code idx} (0-based, in the table's order), in the order of {@code idx}, as a
     * dataset with real targets (the labels parsed as numbers): for public rows only, which come to the driver.
     */
    public static org.privadapt.data.Dataset rows(SparkTable t, int[] idx, String domain) {
        int d = t.dimension();
        int[] sorted = idx.clone();
        Arrays.sort(sorted);
        SparkVectors.Kind kind = SparkVectors.kind(t);
        boolean labelled = t.labelled();
        List<Tuple3<Long, double[], String>> got = InternalRows.of(t).zipWithIndex()
                .filter(z -> Arrays.binarySearch(sorted, (int) (long) z._2()) >= 0)
                .map(z -> new Tuple3<>(z._2(), SparkVectors.features(z._1(), d, kind), labelled ? InternalRows.label(z._1()) : null))
                .collect();
        Map<Long, Tuple3<Long, double[], String>> byIndex = new HashMap<>();
        for (Tuple3<Long, double[], String> g : got) {
            byIndex.put(g._1(), g);
        }
        int n = idx.length;
        double[] data = new double[n * d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            Tuple3<Long, double[], String> r = byIndex.get((long) idx[i]);
            if (r == null) {
                throw new IllegalStateException("row " + idx[i] + " is not in the table (it changed since it was counted)");
            }
            double[] x = r._2();
            for (int j = 0; j < d; j++) {
                data[i + j * n] = x[j];
            }
            y[i] = SparkBassily.target(r._3());
        }
        return new org.privadapt.data.Dataset(domain, new DenseMatrix(n, d, data),
                t.labelled() ? new RealTargets(y, t.labelColumn()) : null, t.featureNames(),
                Provenance.generated("rows of a Spark table"));
    }

    /** All the table's rows in its order (a public table: the source of paper 003), checked as {@link #draw} checks. */
    public static org.privadapt.data.Dataset collect(SparkTable t, String domain) {
        int n = SparkBassily.validRows(t);
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        return rows(t, all, domain);
    }

    /** S_priv on Spark: the training positions, the public maps' constants, n. */
    private static final class Sample implements PrivateSample {
        private final SparkTable pool;
        private final int[] train;
        private final SupervisedProtocol.Scaling scaling;
        private final int n;
        private final Map<Object, SparkTable> mapped = new HashMap<>();

        Sample(SparkTable pool, int[] train, SupervisedProtocol.Scaling scaling, int n) {
            this.pool = pool;
            this.train = train;
            this.scaling = scaling;
            this.n = n;
        }

        @Override
        public NoisyGradientDescent.GradientSum gradientSum(PublicSubspace sub, double rowBound) {
            return SparkBassily.gradientSum(mapped(sub), rowBound);
        }

        @Override
        public StatisticsPCnvxAdap.TargetSource targetSource(PublicSubspace sub) {
            return SparkBassily.targetSource(mapped(sub), n);
        }

        /** The training rows mapped by the scaling and {@code sub} where they are, kept for the descent's T passes. */
        private SparkTable mapped(PublicSubspace sub) {
            return mapped.computeIfAbsent(sub == null ? NONE : sub, k -> {
                RowMap m = new RowMap(scaling, sub, pool.dimension());
                int[] keep = train;
                int d = pool.dimension();
                SparkVectors.Kind kind = SparkVectors.kind(pool);
                JavaRDD<InternalRow> rows = InternalRows.of(pool).zipWithIndex()
                        .filter(z -> Arrays.binarySearch(keep, (int) (long) z._2()) >= 0)
                        .map(z -> m.apply(SparkVectors.features(z._1(), d, kind), InternalRows.label(z._1())));
                Dataset<Row> df = InternalRows.dataFrame(pool, rows, true).persist(StorageLevel.MEMORY_AND_DISK());
                List<String> names = new ArrayList<>();
                for (int j = 0; j < m.outputDimension(); j++) {
                    names.add("z" + j);
                }
                return new SparkTable(df, names, "target");
            });
        }

        /** The key of the unreduced rows. */
        private static final Object NONE = new Object();
    }

    /**
     * One row's public maps, as the in-process protocol applies them to the matrix: {@link SupervisedProtocol.Scaling}
     * (features, then the target), then the reduction's projection and target map (none when {@code sub} is null).
     * Only the constants travel to the executors; the maps are the methods module's own code on a one-row matrix.
     */
    static final class RowMap implements Serializable {
        private static final long serialVersionUID = 1L;
        private final double[] mean;
        private final double[] sd;
        private final double rowScale;
        private final double targetMean;
        private final double targetScale;
        private final int d;
        private final int basisRows;
        private final int basisCols;
        private final double[] basis;
        private final double subRowScale;
        private final double[] offset;
        private final boolean reduced;

        RowMap(SupervisedProtocol.Scaling s, PublicSubspace sub, int d) {
            this.mean = s.mean().clone();
            this.sd = s.sd().clone();
            this.rowScale = s.rowScale();
            this.targetMean = s.targetMean();
            this.targetScale = s.targetScale();
            this.d = d;
            this.reduced = sub != null;
            this.basisRows = sub == null || sub.basis() == null ? 0 : sub.basis().rows();
            this.basisCols = sub == null || sub.basis() == null ? 0 : sub.basis().cols();
            this.basis = sub == null || sub.basis() == null ? null : sub.basis().data().clone();
            this.subRowScale = sub == null ? 1.0 : sub.rowScale();
            this.offset = sub == null || sub.offset() == null ? null : sub.offset().clone();
        }

        int outputDimension() {
            return reduced ? subspace().dimension(d + 1) : d + 1;
        }

        private PublicSubspace subspace() {
            return new PublicSubspace(basis == null ? null : new DenseMatrix(basisRows, basisCols, basis), subRowScale, offset);
        }

        InternalRow apply(double[] features, String label) {
            SupervisedProtocol.Scaling s = new SupervisedProtocol.Scaling(mean, sd, rowScale, targetMean, targetScale);
            DenseMatrix x = s.features(new DenseMatrix(1, d, features));
            double[] y = ((RealTargets) s.targets(new RealTargets(new double[] {SparkBassily.target(label)}, "y")))
                    .values();
            if (reduced) {
                PublicSubspace sub = subspace();
                y = sub.targets(x, y);
                x = sub.project(x);
            }
            return InternalRows.row(x.data().clone(), Double.toString(y[0]), true);
        }
    }
}
