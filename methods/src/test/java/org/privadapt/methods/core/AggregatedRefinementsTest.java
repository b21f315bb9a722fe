package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.models.uda.MapPrototypeSums;

/**
 * The refinements an engine runs from sums over the target's rows (Spark's executors) equal the in-process refinement
 * on the same rows: the same directions to rounding, the same predictions, the same diagnostics but the engine's own
 * note and the relabelled share (which needs the rows in one place), for a prototype model (ncm's class directions)
 * and for a model with its own probabilities (a logistic regression), refined by name and by dp-source-only's default.
 */
class AggregatedRefinementsTest {
    private static final int D = 40;
    private static final int K = 3;

    /** Three shifted classes, 90 target rows of 40 features (n/(K d) = 0.75: the default rule refines). */
    private static DenseMatrix targetRows(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double[][] x = new double[90][D];
        for (int i = 0; i < x.length; i++) {
            int c = i % K;
            for (int j = 0; j < D; j++) {
                x[i][j] = rnd.nextGaussian() + (j % K == c ? 1.5 : 0) + (j < 5 ? 2.0 : 0); // classes + a target shift
            }
        }
        return DenseMatrix.fromRows(x);
    }

    private static Network prototypeModel(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        DenseMatrix w = DenseMatrix.zeros(D, K);
        for (int c = 0; c < K; c++) {
            double[] u = new double[D];
            double s = 0;
            for (int j = 0; j < D; j++) {
                u[j] = (j % K == c ? 1.0 : 0) + 0.6 * rnd.nextGaussian(); // a noisy class direction
                s += u[j] * u[j];
            }
            for (int j = 0; j < D; j++) {
                u[j] /= Math.sqrt(s);
            }
            w.setColumn(c, u);
        }
        return Network.fromParameters(new int[] {D, K}, Activation.IDENTITY, List.of(w), List.of(new double[K]), names());
    }

    private static Network logisticModel(long seed) {
        Network p = prototypeModel(seed);
        return Network.fromParameters(new int[] {D, K}, Activation.IDENTITY, List.of(p.weights(0).scale(4.0)),
                List.of(new double[] {0.3, -0.2, 0.1}), names());
    }

    private static List<String> names() {
        return List.of("a", "b", "c");
    }

    /** Sums a statistic over blocks of 7 rows, as an engine does over its partitions' blocks. */
    private static MapPrototypeSums.RowSums inBlocks(DenseMatrix x, List<Integer> passes) {
        return s -> {
            passes.add(s.length());
            double[] acc = new double[s.length()];
            for (int from = 0; from < x.rows(); from += 7) {
                int to = Math.min(x.rows(), from + 7);
                double[][] rows = new double[to - from][];
                for (int i = from; i < to; i++) {
                    rows[i - from] = x.row(i);
                }
                s.add(DenseMatrix.fromRows(rows), acc);
            }
            return acc;
        };
    }

    @Test
    void mapPrototypesFromSumsEqualsTheInProcessRefinement() {
        DenseMatrix x = targetRows(3);
        for (Network model : List.of(prototypeModel(5), logisticModel(5))) {
            for (Map<String, String> p : List.of(Map.of("refine", "map-prototypes"), Map.of("refine", "default"),
                    Map.of("refine", "map-prototypes", "refine-centre", "false", "refine-iterations", "3"),
                    Map.of("refine", "centre"))) {
                MethodConfig c = new MethodConfig("lr", 0, 1, p);
                TargetRefinements.Refined inProcess = TargetRefinements.refine(c, model, x);
                List<Integer> passes = new ArrayList<>();
                TargetRefinements.Refined summed = AggregatedRefinements.refine(c, model, x.rows(), inBlocks(x, passes));
                Network a = (Network) inProcess.model();
                Network b = (Network) summed.model();
                String what = p + (model.bias(0)[0] == 0 ? " prototypes" : " logistic");
                assertThat(b.predict(x)).as(what).isEqualTo(a.predict(x));
                assertThat(b.weights(0).minus(a.weights(0)).maxAbs()).as(what).isLessThan(1e-9);
                for (int k = 0; k < K; k++) {
                    assertThat(b.bias(0)[k]).as(what).isCloseTo(a.bias(0)[k], org.assertj.core.data.Offset.offset(1e-9));
                }
                if (!"centre".equals(p.get("refine"))) {
                    assertThat(stripped(summed.diagnostics())).as(what).isEqualTo(stripped(inProcess.diagnostics()));
                }
                // passes: the mean (when centred), the source directions (a model without prototypes), the spread, one per update
                assertThat(passes).as(what).isNotEmpty();
            }
        }
    }

    @Test
    void refinementsThatNeedTheRowsInOnePlaceAreRefused() {
        for (String m : List.of("lame", "prior-em", "centroids", "auto", "im")) {
            assertThatThrownBy(() -> AggregatedRefinements.check(new MethodConfig("lr", 0, 1, Map.of("refine", m)), "--engine spark"))
                    .hasMessageContaining("refine=" + m).hasMessageContaining("in process");
        }
        AggregatedRefinements.check(new MethodConfig("lr", 0, 1, Map.of("refine", "map-prototypes")), "--engine spark");
        AggregatedRefinements.check(new MethodConfig("lr", 0, 1, Map.of()), "--engine spark");
    }

    /** The diagnostics without the entries that differ by engine (the relabelled share, the engine's note). */
    @SuppressWarnings("unchecked")
    private static Object stripped(Map<String, Object> diagnostics) {
        Map<String, Object> d = new java.util.TreeMap<>((Map<String, Object>) diagnostics.get("refine"));
        if (d.get("refinement") instanceof Map<?, ?> inner) {
            Map<String, Object> r = new java.util.TreeMap<>((Map<String, Object>) inner);
            r.remove("relabelled_share");
            r.remove("engine");
            d.put("refinement", r);
        }
        d.remove("relabelled_share");
        d.remove("engine");
        return d;
    }
}
