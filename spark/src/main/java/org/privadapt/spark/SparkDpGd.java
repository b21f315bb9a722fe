package org.privadapt.spark;

import org.privadapt.math.CompensatedSums;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.core.PrivateTraining;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Gradients;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The {@code dp-gd} learner on Spark: full-batch DP gradient descent ({@link PrivateLearners.Kind#DP_GD}, the DP-SGD
 * trainer at sampling rate 1). Each step's exact query, the sum over all rows of the per-example gradients clipped to
 * C ({@link DpSgdTrainer#clippedSum} on the row), is one aggregate with the current network broadcast (its parameters
 * in the task's closure, rebuilt on the executor); the noise, the normalisation, weight decay and the optimiser step
 * run on the driver in {@link DpSgdTrainer#train(Network, int, DpSgdTrainer.BatchSums,
 * org.privadapt.models.dp.DpSgdConfig, org.privadapt.models.dp.NoiseAndSampling)}, the in-process loop. One Spark job
 * per step. The plan and its charge are the caller's, as in process; n is public for this learner (the plan's
 * normaliser), and the table's row count must equal it.
 */
public final class SparkDpGd {
    private SparkDpGd() {
    }

    /** The trained network (the plan's event must already be charged). */
    public static Network train(PrivateLearners.Plan p, SparkTable table, List<String> classes, NoiseSource noise) {
        if (p.kind() != PrivateLearners.Kind.DP_GD || p.gradient().config().samplingRate() != 1.0) {
            throw new IllegalArgumentException("not a full-batch dp-gd plan: " + p.kind().label());
        }
        if (!table.labelled()) {
            throw new IllegalArgumentException("dp-gd needs a label column");
        }
        long rows = table.requireValid().rows();
        long n = Math.round(p.gradient().config().normaliser());
        if (rows != n) {
            throw new IllegalArgumentException("the plan is for " + n + " rows (public), the table has " + rows);
        }
        return PrivateTraining.train(p.gradient(), (int) n, batchSums(table, classes, p.gradient().config().clipNorm()),
                table.dimension(), classes, noise);
    }

    /**
     * The full-batch clipped sums over the table (batch must be every row: sampling rate 1), labels coded by their
     * position in the public {@code classes}; a label outside them is refused.
     */
    public static DpSgdTrainer.BatchSums batchSums(SparkTable table, List<String> classes, double clip) {
        List<String> names = List.copyOf(classes);
        return (net, batch, step) -> {
            Params params = Params.of(net);
            GradAcc total = RowAggregation.aggregate(table, () -> new GradAcc(params, names, clip, step));
            if (total.unknown > 0) {
                throw new IllegalArgumentException(total.unknown + " row(s) have a label outside the declared classes " + names);
            }
            if (total.count != batch.length) {
                throw new IllegalStateException("a full batch of " + batch.length + " rows was asked, the table has " + total.count
                        + " (the Spark path is for sampling rate 1)");
            }
            Gradients sum = Gradients.zerosLike(net);
            double[][] arrays = sum.arrays();
            int at = 0;
            for (double[] a : arrays) {
                for (int k = 0; k < a.length; k++) {
                    a[k] = total.sums.value(at++);
                }
            }
            return new DpSgdTrainer.ClippedSum(sum, total.loss.value(0));
        };
    }

    /** A network's parameters as plain arrays (serializable), rebuilt into the same network on an executor. */
    record Params(int[] sizes, Activation hidden, double[][] weights, double[][] biases, List<String> classNames)
            implements java.io.Serializable {
        static Params of(Network net) {
            double[][] w = new double[net.layers()][];
            double[][] b = new double[net.layers()][];
            for (int l = 0; l < net.layers(); l++) {
                w[l] = net.weights(l).data().clone();
                b[l] = net.bias(l).clone();
            }
            return new Params(net.sizes().clone(), net.hiddenActivation(), w, b, new ArrayList<>(net.classNames()));
        }

        Network network() {
            List<DenseMatrix> w = new ArrayList<>();
            List<double[]> b = new ArrayList<>();
            for (int l = 0; l < weights.length; l++) {
                w.add(new DenseMatrix(sizes[l], sizes[l + 1], weights[l].clone()));
                b.add(biases[l].clone());
            }
            return Network.fromParameters(sizes, hidden, w, b, classNames);
        }

        int parameterCount() {
            int c = 0;
            for (int l = 0; l < weights.length; l++) {
                c += weights[l].length + biases[l].length;
            }
            return c;
        }
    }

    /** Per partition: the compensated sums of the clipped per-example gradients (in {@link Gradients#arrays} order) and losses. */
    static final class GradAcc implements RowAggregation.Accumulator<GradAcc> {
        private static final long serialVersionUID = 1L;
        private final Params params;
        private final List<String> names;
        private final double clip;
        private final long step;
        private transient Network net;
        private transient Map<String, Integer> codes;
        final CompensatedSums sums;
        final CompensatedSums loss;
        long count;
        long unknown;

        GradAcc(Params params, List<String> names, double clip, long step) {
            this.params = params;
            this.names = names;
            this.clip = clip;
            this.step = step;
            this.sums = new CompensatedSums(params.parameterCount());
            this.loss = new CompensatedSums(1);
        }

        @Override
        public void add(double[] row, String label) {
            if (codes == null) {
                codes = new HashMap<>();
                for (int c = 0; c < names.size(); c++) {
                    codes.put(names.get(c), c);
                }
                net = params.network();
            }
            Integer c = label == null ? null : codes.get(label);
            if (c == null) {
                unknown++;
                return;
            }
            DpSgdTrainer.ClippedSum one = DpSgdTrainer.clippedSum(net, DenseMatrix.fromRows(new double[][] {row}), new int[] {c},
                    new int[] {0}, clip, 1, step);
            int at = 0;
            for (double[] a : one.sum().arrays()) {
                for (double v : a) {
                    sums.add(at++, v);
                }
            }
            loss.add(0, one.lossSum());
            count++;
        }

        @Override
        public void merge(GradAcc o) {
            sums.merge(o.sums);
            loss.merge(o.loss);
            count += o.count;
            unknown += o.unknown;
        }
    }
}
