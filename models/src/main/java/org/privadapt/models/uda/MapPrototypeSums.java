package org.privadapt.models.uda;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;

/**
 * {@code refine=map-prototypes} ({@link MapPrototypes}) from sums over the target's rows, for an engine that holds the
 * rows where they are (Spark's executors) and can only return sums of per-block statistics. Each statistic is a
 * {@link BlockStatistic}: a serializable function of a block of rows (m x d) added into a fixed-length array; the
 * engine sums it over every block ({@link RowSums}). The passes, for a received linear model centred on the target's
 * mean (as {@code AnchoredRefinements} refines in process):
 * <ol>
 *   <li>the column sums and the row count (the target's mean);</li>
 *   <li>a model without prototypes only: the soft-labelled sums of the centred unit rows under its own probabilities
 *       (the source directions, {@link MapPrototypes#softLabelledDirections});</li>
 *   <li>the spread of the row-centred cosines with the source directions (the inverse temperature,
 *       {@link ReceivedPosteriors#inverseTemperature});</li>
 *   <li>per update: the soft assignments' sums of the unit rows and their evidence per class, then the MAP mix
 *       ({@link MapPrototypes#refine(DenseMatrix, double[], int, java.util.function.Function)}).</li>
 * </ol>
 * The result equals the in-process refinement on the same rows up to the summation order (tested). Nothing leaves the
 * target: the statistics are of its own rows and go to its own driver (docs/privacy/target-refinements.md).
 */
public final class MapPrototypeSums {
    private MapPrototypeSums() {
    }

    /** A statistic of a block of rows added into an array of {@link #length()} entries (executors: serializable). */
    public interface BlockStatistic extends Serializable {
        int length();

        /**
         * Adds this block's statistic (the rows of {@code block}, m x d) into {@code into}: a dense block, or a sparse one
         * ({@link CsrMatrix}: the same statistic at the cost of its non-zeros, {@link SparseUnitRows}).
         */
        void add(FeatureMatrix block, double[] into);
    }

    /** Sums a statistic over every row of the target (in blocks, in any order). */
    @FunctionalInterface
    public interface RowSums {
        double[] sum(BlockStatistic statistic);
    }

    /** The refined model and what the refinement did (for the diagnostics). */
    public record Refined(Network model, double[] mean, MapPrototypes.Result result, double beta, boolean prototypes) {
    }

    /**
     * map-prototypes of {@code model} on the rows {@code rows} sums over.
     *
     * @param centre    centre a linear model on the target's mean first (refine-centre; ignored for a deeper network)
     * @param relevance r per class
     * @param logitSd   the prototype logits' sd on the target ({@link ReceivedPosteriors#DEFAULT_LOGIT_SD})
     */
    public static Refined refine(Network model, RowSums rows, boolean centre, double[] relevance, double logitSd, int iterations) {
        int d = model.sizes()[0];
        int k = model.classNames().size();
        boolean linear = model.layers() == 1;
        boolean doCentre = linear && centre;
        double[] mean = null;
        if (doCentre) {
            double[] s = rows.sum(new ColumnSums(d));
            double n = s[d];
            mean = new double[d];
            for (int j = 0; j < d; j++) {
                mean[j] = n > 0 ? s[j] / n : 0.0;
            }
        }
        boolean prototypes = ReceivedPosteriors.isPrototypeModel(model);
        DenseMatrix source;
        if (prototypes) {
            source = model.weights(0);
        } else {
            Network base = doCentre ? TargetRefinement.centred(model, mean) : model;
            double[] s = rows.sum(new ModelSoftSums(mean, d, base));
            source = TargetRefinement.normalisedColumns(new DenseMatrix(d, k, s));
        }
        double[] spread = rows.sum(new CosineSpread(mean, TargetRefinement.normalisedColumns(source)));
        double sd = spread[1] > 0 ? Math.sqrt(spread[0] / (spread[1] * k)) : 0;
        double beta = sd > 0 ? logitSd / sd : 0.0;
        double[] centre0 = mean;
        MapPrototypes.Result res = MapPrototypes.refine(source, relevance, iterations,
                dirs -> rows.sum(new SoftSums(centre0, dirs, beta)));
        Network out = doCentre ? res.model(model.classNames(), mean) : res.model(model.classNames());
        return new Refined(out, mean, res, beta, prototypes);
    }

    /** {@code [the column sums (d), the row count]} of the rows (the target's mean, for {@code refine=centre}). */
    public static BlockStatistic columnSums(int d) {
        return new ColumnSums(d);
    }

    /** The rows of a block minus {@code mean} (null: as they are), then each scaled to unit norm (a zero row stays 0). */
    static DenseMatrix unitCentred(DenseMatrix block, double[] mean) {
        DenseMatrix z = mean == null ? block : block.minusRowVector(mean);
        double[] sq = z.rowSquaredNorms();
        double[] f = new double[sq.length];
        for (int i = 0; i < sq.length; i++) {
            f[i] = sq[i] > 0 ? 1.0 / Math.sqrt(sq[i]) : 0.0;
        }
        return z.scaleRows(f);
    }

    /** {@code [sum of the rows (d), the row count]}. */
    record ColumnSums(int d) implements BlockStatistic {
        @Override
        public int length() {
            return d + 1;
        }

        @Override
        public void add(FeatureMatrix rows, double[] into) {
            if (rows instanceof CsrMatrix x) {
                for (int k = 0; k < x.storedEntries(); k++) {
                    into[x.colIndexAt(k)] += x.valueAt(k);
                }
                into[d] += x.rows();
                return;
            }
            DenseMatrix block = rows.toDense();
            int m = block.rows();
            double[] a = block.data();
            for (int j = 0; j < d; j++) {
                double s = 0;
                for (int i = 0, o = j * m; i < m; i++) {
                    s += a[o + i];
                }
                into[j] += s;
            }
            into[d] += m;
        }
    }

    /** {@code [sum over rows and classes of the row-centred cosines squared, the row count]}. */
    record CosineSpread(double[] mean, int d, int k, double[] directions) implements BlockStatistic {
        CosineSpread(double[] mean, DenseMatrix unitDirections) {
            this(mean, unitDirections.rows(), unitDirections.cols(), unitDirections.data().clone());
        }

        @Override
        public int length() {
            return 2;
        }

        @Override
        public void add(FeatureMatrix block, double[] into) {
            DenseMatrix dirs = new DenseMatrix(d, k, directions);
            DenseMatrix cos = block instanceof CsrMatrix x ? new SparseUnitRows(x, mean).times(dirs)
                    : unitCentred(block.toDense(), mean).multiply(dirs);
            into[0] += ReceivedPosteriors.rowCentredSumOfSquares(cos); // as inverseTemperature sums it
            into[1] += cos.rows();
        }
    }

    /** {@code [the unit rows' sums weighted by the soft assignments (d x K, column-major), the evidence per class (K)]}. */
    record SoftSums(double[] mean, int d, int k, double[] directions, double beta) implements BlockStatistic {
        SoftSums(double[] mean, DenseMatrix unitDirections, double beta) {
            this(mean, unitDirections.rows(), unitDirections.cols(), unitDirections.data().clone(), beta);
        }

        @Override
        public int length() {
            return d * k + k;
        }

        @Override
        public void add(FeatureMatrix block, double[] into) {
            DenseMatrix dirs = new DenseMatrix(d, k, directions);
            DenseMatrix gamma;
            if (block instanceof CsrMatrix x) {
                SparseUnitRows unit = new SparseUnitRows(x, mean);
                gamma = MapPrototypes.assignments(unit.times(dirs), beta);
                unit.addWeightedSums(gamma, into);
            } else {
                DenseMatrix unit = unitCentred(block.toDense(), mean);
                gamma = MapPrototypes.assignments(unit.multiply(dirs), beta);
                addWeightedSums(unit, gamma, into);
            }
            for (int c = 0; c < k; c++) {
                double s = 0;
                for (int i = 0; i < gamma.rows(); i++) {
                    s += gamma.get(i, c);
                }
                into[d * k + c] += s;
            }
        }
    }

    /** The centred unit rows' sums weighted by a network's own class probabilities (d x K, column-major). */
    record ModelSoftSums(double[] mean, int d, int[] sizes, Activation hidden, double[][] weights, double[][] biases,
                         List<String> classNames) implements BlockStatistic {
        ModelSoftSums(double[] mean, int d, Network net) {
            this(mean, d, net.sizes().clone(), net.hiddenActivation(), weightsOf(net), biasesOf(net), new ArrayList<>(net.classNames()));
        }

        @Override
        public int length() {
            return d * classNames.size();
        }

        @Override
        public void add(FeatureMatrix block, double[] into) {
            List<DenseMatrix> w = new ArrayList<>();
            List<double[]> b = new ArrayList<>();
            for (int l = 0; l < weights.length; l++) {
                w.add(new DenseMatrix(sizes[l], sizes[l + 1], weights[l]));
                b.add(biases[l]);
            }
            DenseMatrix p = Network.fromParameters(sizes, hidden, w, b, classNames).predictProba(block);
            if (block instanceof CsrMatrix x) {
                new SparseUnitRows(x, mean).addWeightedSums(p, into);
            } else {
                addWeightedSums(unitCentred(block.toDense(), mean), p, into);
            }
        }

        private static double[][] weightsOf(Network net) {
            double[][] w = new double[net.layers()][];
            for (int l = 0; l < net.layers(); l++) {
                w[l] = net.weights(l).data().clone();
            }
            return w;
        }

        private static double[][] biasesOf(Network net) {
            double[][] b = new double[net.layers()][];
            for (int l = 0; l < net.layers(); l++) {
                b[l] = net.bias(l).clone();
            }
            return b;
        }
    }

    /** Adds {@code unit^T weights} (d x K, one BLAS product) into the first d K entries of {@code into}. */
    private static void addWeightedSums(DenseMatrix unit, DenseMatrix weights, double[] into) {
        double[] s = unit.transposeMultiply(weights).data();
        for (int t = 0; t < s.length; t++) {
            into[t] += s[t];
        }
    }
}
