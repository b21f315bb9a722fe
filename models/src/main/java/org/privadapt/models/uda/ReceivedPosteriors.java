package org.privadapt.models.uda;

import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.Classifier;
import org.privadapt.models.Softmax;
import org.privadapt.models.nn.Network;

/**
 * The received model's class probabilities on the target's rows, as the anchored refinements ({@link PriorEm},
 * {@link MapPrototypes}, {@link Lame}) read them (docs/privacy/target-refinements.md).
 *
 * <ul>
 *   <li>A model fitted with a likelihood (logistic regression, DP-SGD, a network): its own softmax probabilities.</li>
 *   <li>A prototype model (a linear model without bias whose weight columns are unit directions: ncm's released class
 *       directions, or a centroid refinement): its scores are cosines, whose scale (set by d, the preprocessing and
 *       the noise) carries no probability. Its probabilities are {@code softmax(beta cos(x, w_c))}, with the inverse
 *       temperature calibrated on the target's rows without labels: {@code beta = logitSd / sd}, where sd is the
 *       standard deviation of the cosines after removing each row's mean over the classes (softmax ignores that mean).
 *       The logits then have standard deviation {@code logitSd} over the target (3 by default: the scale
 *       {@code refine=im} gives a received model's logits).</li>
 * </ul>
 */
public final class ReceivedPosteriors {
    private ReceivedPosteriors() {
    }

    /** Default standard deviation of a prototype model's logits on the target (refine=im's temperature). */
    public static final double DEFAULT_LOGIT_SD = 3.0;

    /** True for a linear model without bias whose weight columns have unit (or zero) norm: its scores are cosines. */
    public static boolean isPrototypeModel(Classifier m) {
        if (!(m instanceof Network net) || net.layers() != 1) {
            return false;
        }
        for (double b : net.bias(0)) {
            if (b != 0) {
                return false;
            }
        }
        DenseMatrix w = net.weights(0);
        for (int c = 0; c < w.cols(); c++) {
            double s = 0;
            for (double v : w.columnCopy(c)) {
                s += v * v;
            }
            if (s != 0 && Math.abs(Math.sqrt(s) - 1) > 1e-6) {
                return false;
            }
        }
        return true;
    }

    /**
     * The model as a probabilistic classifier: a prototype model becomes a {@link CosineSoftmax} at the inverse
     * temperature calibrated on {@code target} ({@link #inverseTemperature}); any other model is returned as it is.
     */
    public static Classifier probabilistic(Classifier m, FeatureMatrix target, double logitSd) {
        return probabilistic(m, target, logitSd, null);
    }

    /**
     * As {@link #probabilistic(Classifier, FeatureMatrix, double)}, a prototype model scoring the cosines of the rows
     * centred on {@code mean} (null: not centred) with its directions.
     */
    public static Classifier probabilistic(Classifier m, FeatureMatrix target, double logitSd, double[] mean) {
        if (!isPrototypeModel(m)) {
            return m;
        }
        DenseMatrix dirs = ((Network) m).weights(0);
        double beta = inverseTemperature(cosines(target, dirs, mean), logitSd);
        return new CosineSoftmax(dirs, beta, new double[dirs.cols()], m.classNames(), mean);
    }

    /** Cosines of the rows with unit directions (n x K); a zero row scores 0. */
    public static DenseMatrix cosines(FeatureMatrix x, DenseMatrix unitDirections) {
        return TargetRefinement.unitRows(x).multiply(unitDirections);
    }

    /** Cosines of the rows centred on {@code mean} (null: as they are) with unit directions. */
    public static DenseMatrix cosines(FeatureMatrix x, DenseMatrix unitDirections, double[] mean) {
        return cosines(mean == null ? x : new CentredRows(x, mean), unitDirections);
    }

    /** {@code logitSd / sd} of the row-centred scores (0 when the scores do not vary across classes). */
    public static double inverseTemperature(DenseMatrix scores, double logitSd) {
        int n = scores.rows();
        int k = scores.cols();
        double ss = rowCentredSumOfSquares(scores);
        double sd = n * k > 0 ? Math.sqrt(ss / ((double) n * k)) : 0;
        return sd > 0 ? logitSd / sd : 0.0;
    }

    /** The sum over rows and classes of the scores' squares after removing each row's mean over the classes. */
    static double rowCentredSumOfSquares(DenseMatrix scores) {
        int k = scores.cols();
        double ss = 0;
        for (int i = 0; i < scores.rows(); i++) {
            double m = 0;
            for (int c = 0; c < k; c++) {
                m += scores.get(i, c) / k;
            }
            for (int c = 0; c < k; c++) {
                double v = scores.get(i, c) - m;
                ss += v * v;
            }
        }
        return ss;
    }

    /**
     * A model whose class probabilities are shifted by per-class log offsets ({@code p'_c ∝ p_c exp(offset_c)}): a
     * network's last bias plus the offsets (the same network, so it stays one), a {@link CosineSoftmax} with the
     * offsets added, any other model wrapped ({@link Shifted}).
     */
    public static Classifier shifted(Classifier m, double[] offsets) {
        if (m instanceof CosineSoftmax cs) {
            double[] o = cs.offsets().clone();
            for (int c = 0; c < o.length; c++) {
                o[c] += offsets[c];
            }
            return new CosineSoftmax(cs.directions(), cs.beta(), o, cs.classNames(), cs.mean());
        }
        if (m instanceof Network net) {
            int last = net.layers() - 1;
            java.util.List<DenseMatrix> ws = new java.util.ArrayList<>();
            java.util.List<double[]> bs = new java.util.ArrayList<>();
            for (int l = 0; l <= last; l++) {
                ws.add(net.weights(l));
                bs.add(net.bias(l).clone());
            }
            for (int c = 0; c < offsets.length; c++) {
                bs.get(last)[c] += offsets[c];
            }
            return Network.fromParameters(net.sizes(), net.hiddenActivation(), ws, bs, net.classNames());
        }
        return new Shifted(m, offsets.clone());
    }

    /**
     * Class c scores {@code beta cos(x - mean, directions_c) + offsets_c} (mean null: {@code cos(x, directions_c)});
     * probabilities are their softmax.
     */
    public record CosineSoftmax(DenseMatrix directions, double beta, double[] offsets, List<String> classNames, double[] mean)
            implements Classifier {
        @Override
        public int dimension() {
            return directions.rows();
        }

        @Override
        public DenseMatrix predictProba(FeatureMatrix x) {
            DenseMatrix z = cosines(x, directions, mean).scale(beta).plusRowVector(offsets);
            return Softmax.inPlace(z);
        }
    }

    /** A model's probabilities re-weighted by {@code exp(offsets_c)} and renormalised. */
    public record Shifted(Classifier base, double[] offsets) implements Classifier {
        @Override
        public int dimension() {
            return base.dimension();
        }

        @Override
        public List<String> classNames() {
            return base.classNames();
        }

        @Override
        public DenseMatrix predictProba(FeatureMatrix x) {
            DenseMatrix p = base.predictProba(x);
            DenseMatrix z = DenseMatrix.zeros(p.rows(), p.cols());
            for (int i = 0; i < p.rows(); i++) {
                for (int c = 0; c < p.cols(); c++) {
                    z.set(i, c, Math.log(Math.max(p.get(i, c), 1e-300)) + offsets[c]);
                }
            }
            return Softmax.inPlace(z);
        }
    }
}
