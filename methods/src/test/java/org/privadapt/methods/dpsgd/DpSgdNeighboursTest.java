package org.privadapt.methods.dpsgd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateTraining;
import org.privadapt.methods.neighbours.Neighbours;
import org.privadapt.methods.neighbours.ReleaseComparison;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;

/**
 * The neighbouring-dataset harness for DP-SGD (dp-source-only, the PRIMA/PRISA source models; docs/privacy/testing.md):
 * (a) the query each step adds noise to, the sum of clipped per-example gradients, moves by at most C between
 * add/remove neighbours and 2C between replace-one neighbours, for logistic regression and a network, at several
 * parameter values; (b) the plan, which the model's statement and the ledger carry, is identical for replace-one
 * neighbours, and under add/remove differs only in what n determines (declared public, or the release is refused:
 * see Disclosures).
 */
class DpSgdNeighboursTest {

    static double[] flat(DpSgdTrainer.ClippedSum s) {
        double[][] a = s.sum().arrays();
        int n = 0;
        for (double[] v : a) {
            n += v.length;
        }
        double[] out = new double[n];
        int p = 0;
        for (double[] v : a) {
            System.arraycopy(v, 0, out, p, v.length);
            p += v.length;
        }
        return out;
    }

    static int[] all(int n) {
        return java.util.stream.IntStream.range(0, n).toArray();
    }

    @Test
    void theClippedGradientSumMovesByAtMostCOrTwoC() {
        double clip = 0.7;
        Neighbours.Labelled base = Neighbours.random(50, 8, 4, 3.0, 1);
        SplittableRandom r = new SplittableRandom(2);
        for (int[] hidden : new int[][] {{}, {6}}) {
            for (int init = 0; init < 3; init++) {
                Network net = Network.create(8, hidden, Activation.RELU, base.classNames(), 10 + init);
                for (int l = 0; l < net.layers(); l++) { // move away from the initialisation: larger gradients
                    double[] w = net.weights(l).data();
                    for (int i = 0; i < w.length; i++) {
                        w[i] += r.nextDouble() * 2 - 1;
                    }
                }
                for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                    List<Neighbours.Pair> pairs = rel == NeighbouringRelation.REPLACE_ONE ? Neighbours.replaceOne(base, 3.0, init)
                            : Neighbours.addRemove(base, 3.0, init);
                    for (Neighbours.Pair p : pairs) {
                        // every row in the batch: the record is sampled on both sides (replace) or on one (add/remove)
                        double[] a = flat(DpSgdTrainer.clippedSum(net, p.d().matrix(), p.d().y(), all(p.d().n()), clip, 16, 0));
                        double[] b = flat(DpSgdTrainer.clippedSum(net, p.dPrime().matrix(), p.dPrime().y(), all(p.dPrime().n()), clip,
                                16, 0));
                        double bound = rel == NeighbouringRelation.REPLACE_ONE ? 2 * clip : clip;
                        ReleaseComparison.assertWithin(ReleaseComparison.l2(a, b), bound, 1e-12, rel + " " + p);
                    }
                }
            }
        }
    }

    @Test
    void thePlanIsIdenticalForReplaceOneNeighboursAndUnderAddRemoveDependsOnNAlone() {
        MethodConfig c = new MethodConfig("lr", 1e-3, 1L, Map.of("epochs", "3", "batch", "16"));
        Neighbours.Labelled base = Neighbours.random(60, 5, 3, 1.0, 3);
        for (Neighbours.Pair p : Neighbours.replaceOne(base, 1.0, 5)) {
            Map<String, Object> a = PrivateTraining.plan(c, p.d().n(), 2.0, 1e-5, NeighbouringRelation.REPLACE_ONE).describe();
            Map<String, Object> b = PrivateTraining.plan(c, p.dPrime().n(), 2.0, 1e-5, NeighbouringRelation.REPLACE_ONE).describe();
            assertThat(b).as("%s", p).isEqualTo(a);
        }
        for (Neighbours.Pair p : Neighbours.addRemove(base, 1.0, 5)) {
            Map<String, Object> a = PrivateTraining.plan(c, p.d().n(), 2.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE).describe();
            Map<String, Object> b = PrivateTraining.plan(c, p.dPrime().n(), 2.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE).describe();
            // n is visible through these fields: why n must be declared public under add/remove (Disclosures)
            assertThat(a.get("sample_rate")).isNotEqualTo(b.get("sample_rate"));
            a.keySet().removeAll(List.of("sample_rate", "steps", "noise_multiplier"));
            b.keySet().removeAll(List.of("sample_rate", "steps", "noise_multiplier"));
            assertThat(b).as("%s", p).isEqualTo(a);
        }
    }

    /** The data the harness uses is what the release sees: rows beyond the bound exist and are clipped. */
    @Test
    void theNeighboursIncludeRowsFarBeyondTheClipBound() {
        Neighbours.Labelled base = Neighbours.random(20, 4, 3, 1.0, 9);
        double worst = 0;
        for (Neighbours.Pair p : Neighbours.replaceOne(base, 1.0, 1)) {
            DenseMatrix x = p.dPrime().matrix();
            for (int i = 0; i < x.rows(); i++) {
                double s = 0;
                for (double v : x.row(i)) {
                    s += v * v;
                }
                worst = Math.max(worst, Math.sqrt(s));
            }
        }
        assertThat(worst).isGreaterThan(100);
    }
}
