package org.privadapt.spark;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.CompensatedSums;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.math.optim.Lbfgs;
import org.privadapt.models.LogisticRegression;
import org.privadapt.models.Softmax;

/**
 * The non-private baselines' classifier on Spark: {@link org.privadapt.models.LogisticRegressionTrainer}'s multinomial
 * logistic regression (mean cross-entropy plus {@code (l2/2) ||W||^2}, bias not penalised, L-BFGS from zero with the
 * same memory, iterations and tolerances), each objective evaluation one aggregate over the rows where they are: the
 * rows mapped by a public d x d' matrix (CORAL's alignment, SA's source map; none for source-only), the softmax of the
 * current parameters, the summed cross-entropy and its gradient, compensated. L-BFGS runs on the driver.
 *
 * <p><b>Not private</b>: the exact n and the exact gradients are read, as by the in-process baselines the private
 * methods are compared with. The sums differ from the in-process products by rounding (about 1e-16 relative), so the
 * model equals the in-process one to the optimiser's tolerance, not bit for bit.
 */
public final class SparkLogisticRegression {
    private SparkLogisticRegression() {
    }

    /**
     * The model of {@code new LogisticRegressionTrainer(l2, maxIterations).fit(rows * map, labels)}, the labels coded
     * by their position in {@code classes} (given: a row whose label is not among them is refused).
     *
     * @param map the d x d' map applied to every row where it is, or null for the rows as they are
     * @throws IllegalArgumentException for a table without rows or labels, or a label outside {@code classes}
     */
    public static LogisticRegression fit(SparkTable table, DenseMatrix map, List<String> classes, double l2, int maxIterations) {
        if (!table.labelled()) {
            throw new IllegalArgumentException("logistic regression needs the rows' label column");
        }
        if (map != null && map.rows() != table.dimension()) {
            throw new IllegalArgumentException("the map has " + map.rows() + " rows; the table " + table.dimension() + " features");
        }
        if (!(l2 >= 0)) {
            throw new IllegalArgumentException("l2 must be >= 0, got " + l2);
        }
        long outside = SparkPrimaTrain.outsideClasses(table, classes);
        if (outside > 0) {
            throw new IllegalArgumentException(outside + " row(s) have a label outside the classes " + classes);
        }
        int d = map == null ? table.dimension() : map.cols();
        int k = classes.size();
        double[] mapData = map == null ? null : map.data().clone(); // shipped to the executors as an array
        int mapRows = map == null ? 0 : map.rows();
        List<String> names = List.copyOf(classes);
        Lbfgs.Objective f = (theta, grad) -> {
            double[] t = theta.clone();
            Acc acc = RowAggregation.aggregate(table, () -> new Acc(t, mapData, mapRows, names, d, k));
            long n = acc.count;
            if (n == 0) {
                throw new IllegalArgumentException("logistic regression on a table with no rows");
            }
            double reg = 0;
            for (int j = 0; j < d * k; j++) {
                reg += theta[j] * theta[j];
                grad[j] = acc.grad.value(j) / n + l2 * theta[j];
            }
            for (int c = 0; c < k; c++) {
                grad[d * k + c] = acc.grad.value(d * k + c) / n;
            }
            return acc.loss.value(0) / n + 0.5 * l2 * reg;
        };
        Lbfgs.Result r = new Lbfgs(10, maxIterations, 1e-6, 1e-10).minimize(f, new double[d * k + k]);
        double[] theta = r.x();
        return new LogisticRegression(new DenseMatrix(d, k, java.util.Arrays.copyOf(theta, d * k)),
                java.util.Arrays.copyOfRange(theta, d * k, d * k + k), classes);
    }

    /** One evaluation's sums: the cross-entropy and the gradient of W (d x k, column-major) and b, over the rows. */
    static final class Acc implements RowAggregation.Accumulator<Acc> {
        private static final long serialVersionUID = 1L;
        private final double[] theta;
        private final double[] mapData;
        private final int mapRows;
        private final Map<String, Integer> index = new HashMap<>();
        private final int d;
        private final int k;
        final CompensatedSums loss = new CompensatedSums(1);
        final CompensatedSums grad;
        long count;

        Acc(double[] theta, double[] mapData, int mapRows, List<String> classes, int d, int k) {
            this.theta = theta;
            this.mapData = mapData;
            this.mapRows = mapRows;
            this.d = d;
            this.k = k;
            for (int c = 0; c < classes.size(); c++) {
                index.put(classes.get(c), c);
            }
            this.grad = new CompensatedSums(d * k + k);
        }

        @Override
        public void add(double[] features, String label) {
            addBlock(new double[][] {features}, new String[] {label}, 1);
        }

        @Override
        public void addBlock(double[][] rows, String[] labels, int m) {
            if (m == 0) {
                return;
            }
            DenseMatrix x = DenseMatrix.fromRows(java.util.Arrays.copyOf(rows, m));
            if (mapData != null) {
                x = LinAlg.multiply(x, new DenseMatrix(mapRows, d, mapData));
            }
            DenseMatrix w = new DenseMatrix(d, k, java.util.Arrays.copyOf(theta, d * k));
            double[] b = java.util.Arrays.copyOfRange(theta, d * k, d * k + k);
            DenseMatrix p = Softmax.inPlace(x.multiply(w).plusRowVector(b));
            double[] pa = p.data();
            double blockLoss = 0;
            for (int i = 0; i < m; i++) {
                int y = index.get(labels[i]);
                blockLoss -= Math.log(Math.max(pa[i + y * m], 1e-300));
                pa[i + y * m] -= 1.0; // P - Y
            }
            loss.add(0, blockLoss);
            double[] gw = x.transposeMultiply(p).data();
            for (int j = 0; j < d * k; j++) {
                grad.add(j, gw[j]);
            }
            for (int c = 0; c < k; c++) {
                double s = 0;
                for (int i = 0; i < m; i++) {
                    s += pa[i + c * m];
                }
                grad.add(d * k + c, s);
            }
            count += m;
        }

        @Override
        public void merge(Acc other) {
            loss.merge(other.loss);
            grad.merge(other.grad);
            count += other.count;
        }
    }
}
