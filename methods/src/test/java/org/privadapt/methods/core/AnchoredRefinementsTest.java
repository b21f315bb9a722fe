package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.Classifier;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.models.uda.Lame;

/**
 * {@code refine=prior-em|map-prototypes|lame} through {@link TargetRefinements}: selectable by name, reported in the
 * diagnostics, not among refine=auto's candidates, options checked, sparse wide rows handled. Fixed seeds.
 */
class AnchoredRefinementsTest {
    static final List<String> ABC = List.of("a", "b", "c");

    static MethodConfig config(String refine, String... kv) {
        MethodConfig c = MethodConfig.defaults().withParam("refine", refine);
        for (int i = 0; i < kv.length; i += 2) {
            c = c.withParam(kv[i], kv[i + 1]);
        }
        return c;
    }

    /** Three classes around 4 e_c plus a common offset 2 on the last coordinate (non-negative-like rows), sd 1. */
    static DenseMatrix rows(int perClass, int d, long seed, int[] y) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(3 * perClass, d);
        for (int i = 0; i < 3 * perClass; i++) {
            y[i] = i % 3;
            for (int j = 0; j < d; j++) {
                x.set(i, j, (j == y[i] ? 4 : 0) + (j == d - 1 ? 2 : 0) + r.nextGaussian());
            }
        }
        return x;
    }

    /** A prototype model (ncm-like: unit directions, no bias) with noisy class directions. */
    static Network prototypes(int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix w = DenseMatrix.zeros(d, 3);
        for (int c = 0; c < 3; c++) {
            double[] col = new double[d];
            double s = 0;
            for (int j = 0; j < d; j++) {
                col[j] = (j == c ? 2 : 0) + (j == d - 1 ? 1 : 0) + 0.8 * r.nextGaussian();
                s += col[j] * col[j];
            }
            for (int j = 0; j < d; j++) {
                col[j] /= Math.sqrt(s);
            }
            w.setColumn(c, col);
        }
        return Network.fromParameters(new int[] {d, 3}, Activation.IDENTITY, List.of(w), List.of(new double[3]), ABC);
    }

    @Test
    void eachIsSelectableAndReportedButNotAnAutoCandidate() {
        int[] y = new int[300];
        DenseMatrix x = rows(100, 6, 1, y);
        Network ncm = prototypes(6, 2);
        Network lr = Network.fromParameters(new int[] {6, 3}, Activation.IDENTITY, List.of(ncm.weights(0).scale(3)),
                List.of(new double[] {0.2, 0, -0.2}), ABC); // not a prototype model: its own probabilities
        for (String m : TargetRefinements.ANCHORED_MODES) {
            assertThat(TargetRefinements.MODES).doesNotContain(m);
            assertThat(TargetRefinements.mode(config(m))).isEqualTo(m);
            for (Classifier model : List.of(ncm, lr)) {
                TargetRefinements.Refined r = TargetRefinements.refine(config(m), model, x);
                assertThat(r.model().predict(x)).hasSize(300);
                @SuppressWarnings("unchecked")
                Map<String, Object> d = (Map<String, Object>) r.diagnostics().get("refine");
                assertThat(d).containsEntry("mode", m).containsKeys("probabilities", "relabelled_share", "cost", "centred");
                assertThat(String.valueOf(d.get("probabilities"))).startsWith(model == ncm ? "softmax of the prototype" : "the model's own");
            }
        }
        assertThat(TargetRefinements.PARAMETERS).contains("refine-prior-weight", "refine-logit-sd", "refine-relevance", "refine-source-counts",
                "refine-neighbours", "refine-iterations", "refine-centre");
    }

    @Test
    void optionsAreChecked() {
        assertThatThrownBy(() -> TargetRefinements.mode(config("prior-em", "refine-logit-sd", "0")))
                .hasMessageContaining("refine-logit-sd");
        assertThatThrownBy(() -> TargetRefinements.mode(config("map-prototypes", "refine-relevance", "-1")))
                .hasMessageContaining("refine-relevance");
        assertThatThrownBy(() -> TargetRefinements.mode(config("lame", "refine-neighbours", "-2")))
                .hasMessageContaining("refine-neighbours");
        assertThatThrownBy(() -> TargetRefinements.mode(config("prior-em", "refine-source-counts", "10,x")))
                .hasMessageContaining("refine-source-counts");
        assertThatThrownBy(() -> TargetRefinements.mode(config("prior-em", "refine-prior-weight", "-1")))
                .hasMessageContaining("refine-prior-weight");
        int[] y = new int[60];
        DenseMatrix x = rows(20, 4, 3, y);
        assertThatThrownBy(() -> TargetRefinements.refine(config("prior-em", "refine-source-counts", "10,20"), prototypes(4, 4), x))
                .hasMessageContaining("3 counts");
        assertThat(TargetRefinements.mode(config("map-prototypes", "refine-relevance", "inf"))).isEqualTo("map-prototypes");
    }

    @Test
    void infiniteRelevanceAndNoNeighboursKeepTheReceivedPredictions() {
        int[] y = new int[300];
        DenseMatrix x = rows(100, 6, 5, y);
        Network ncm = prototypes(6, 6);
        int[] received = ncm.predict(x);
        Classifier map = TargetRefinements.refine(config("map-prototypes", "refine-relevance", "inf", "refine-centre", "false"), ncm, x).model();
        assertThat(map.predict(x)).isEqualTo(received);
        Classifier lame = TargetRefinements.refine(config("lame", "refine-neighbours", "0", "refine-centre", "false"), ncm, x).model();
        assertThat(lame.predict(x)).isEqualTo(received);
        // centred (the default for a linear model): lame without neighbours is refine=centre's model
        Classifier centre = TargetRefinements.refine(config("centre"), ncm, x).model();
        Classifier lameCentred = TargetRefinements.refine(config("lame", "refine-neighbours", "0"), ncm, x).model();
        assertThat(lameCentred.predict(x)).isEqualTo(centre.predict(x));
    }

    @Test
    void fromPredictedClassesOnlyMapPrototypesApplies() {
        int[] y = new int[300];
        DenseMatrix x = rows(100, 6, 7, y);
        int[] pred = prototypes(6, 8).predict(x);
        TargetRefinements.Refined r = TargetRefinements.refinePredictions(config("map-prototypes"), pred, ABC, x);
        assertThat(r.model().predict(x)).hasSize(300);
        assertThat(r.diagnostics()).containsKey("refine");
        for (String m : List.of("prior-em", "lame")) {
            assertThatThrownBy(() -> TargetRefinements.refinePredictions(config(m), pred, ABC, x))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("probabilities");
        }
    }

    /** ecml2006-spam-taskb's width: 152,543 sparse columns, centred without densifying; every mode runs. */
    @Test
    void sparseWideRowsWork() {
        int n = 400;
        int d = 152_543;
        SplittableRandom r = new SplittableRandom(9);
        int[] start = new int[n + 1];
        List<Integer> cols = new ArrayList<>();
        List<Double> vals = new ArrayList<>();
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
            java.util.TreeSet<Integer> js = new java.util.TreeSet<>();
            while (js.size() < 30) {
                double u = r.nextDouble();
                js.add(u < 0.4 ? y[i] * 50 + r.nextInt(50) : u < 0.7 ? 100 + r.nextInt(200) : r.nextInt(d));
            }
            for (int j : js) {
                cols.add(j);
                vals.add(1.0);
            }
            start[i + 1] = cols.size();
        }
        FeatureMatrix x = new CsrMatrix(n, d, start, cols.stream().mapToInt(Integer::intValue).toArray(),
                vals.stream().mapToDouble(Double::doubleValue).toArray());
        DenseMatrix w = DenseMatrix.zeros(d, 2);
        for (int c = 0; c < 2; c++) {
            double[] col = new double[d];
            for (int j = 0; j < 300; j++) {
                col[j] = (j >= c * 50 && j < c * 50 + 50 ? 1.0 : 0.3) + 0.5 * r.nextGaussian();
            }
            double s = 0;
            for (double v : col) {
                s += v * v;
            }
            for (int j = 0; j < d; j++) {
                col[j] /= Math.sqrt(s);
            }
            w.setColumn(c, col);
        }
        Network ncm = Network.fromParameters(new int[] {d, 2}, Activation.IDENTITY, List.of(w), List.of(new double[2]), List.of("ham", "spam"));
        double base = accuracy(ncm.predict(x), y);
        for (String m : TargetRefinements.ANCHORED_MODES) {
            Classifier refined = TargetRefinements.refine(config(m), ncm, x).model();
            double acc = accuracy(refined.predict(x), y);
            assertThat(acc).as(m).isGreaterThan(base - 0.05);
            if (refined instanceof Lame.Smoothed s) {
                assertThat(s.neighbours()).isEqualTo(Lame.DEFAULT_NEIGHBOURS);
            }
        }
    }

    static double accuracy(int[] pred, int[] y) {
        int ok = 0;
        for (int i = 0; i < y.length; i++) {
            ok += pred[i] == y[i] ? 1 : 0;
        }
        return (double) ok / y.length;
    }
}
