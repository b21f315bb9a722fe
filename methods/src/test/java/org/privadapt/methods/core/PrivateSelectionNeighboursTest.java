package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privadapt.methods.neighbours.Neighbours;
import org.privadapt.methods.neighbours.Neighbours.Labelled;
import org.privadapt.methods.neighbours.Neighbours.Pair;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The neighbouring-dataset harness for private selection (docs/privacy/selection.md, docs/privacy/testing.md). The
 * mechanism is symmetric in the order of the rows (every row gets an independent coin; the learners are sums or
 * Poisson-sampled), so each pair is laid out with the differing record last, and both datasets run with the same
 * seeded noise. Then: the split of the common records is the same; when the differing record falls in the validation
 * part V, the training part is the same, every fitted model is the same, and each candidate's exact and released
 * validation count differs by at most 1 (the declared sensitivity, attained); when it falls in T, V is the same and
 * only the models differ (each learner's release is in its own harness: ClassStatisticsNeighboursTest,
 * DpSgdNeighboursTest). The plan, which the ledger and the model's statement carry, does not depend on the data (n
 * only, for a DP-SGD candidate, which needs n public). Both strategies; both relations.
 */
class PrivateSelectionNeighboursTest {
    static final double BOUND = 3.0;

    static Labelled base() {
        return Neighbours.random(40, 5, 4, BOUND, 29);
    }

    static Labelled moveLast(Labelled d, int i) {
        int n = d.n();
        if (i >= n) {
            return d;
        }
        double[][] x = new double[n][];
        int[] y = new int[n];
        for (int a = 0, b = 0; a < n; a++) {
            if (a != i) {
                x[b] = d.x()[a];
                y[b++] = d.y()[a];
            }
        }
        x[n - 1] = d.x()[i];
        y[n - 1] = d.y()[i];
        return new Labelled(x, y, d.classes());
    }

    static MethodConfig config(String candidates, String strategy) {
        return MethodConfig.defaults().withParam("learner", "select").withParam("learner-candidates", candidates)
                .withParam("selection", strategy).withParam("learner-row-bound", Double.toString(BOUND)).withParam("epochs", "1")
                .withParam("batch", "8");
    }

    static PrivateSelection.Outcome run(PrivateSelection.Plan p, Labelled d, long seed) {
        return PrivateSelection.run(p, d.matrix(), d.y(), d.classNames(), NoiseSource.seeded(seed));
    }

    @Test
    void everyReleasedCountMovesByAtMostOneAndTheRestIsIdentical() {
        int[] attained = {0};
        int[] inV = {0};
        int[] inT = {0};
        int[] vectorAttained = {0};
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            List<Pair> pairs = rel == NeighbouringRelation.REPLACE_ONE ? Neighbours.replaceOne(base(), BOUND, 3)
                    : Neighbours.addRemove(base(), BOUND, 3);
            for (String strategy : List.of("all", "repeat")) {
                // a DP-SGD candidate (the slowest) in one strategy and relation, where n enters its plan
                for (String cands : strategy.equals("all") && rel == NeighbouringRelation.ADD_OR_REMOVE_ONE ? List.of("ncm,lda", "ncm,dp-sgd,lda:lda-shrinkage=0.9") : List.of("ncm,lda")) {
                    // the plan reads public quantities only (the declared n, d, the class set): one for both datasets
                    PrivateSelection.Plan pd = PrivateSelection.plan(config(cands, strategy), 40, 5, 4, 2, 1e-5, rel);
                    PrivateSelection.Plan pe = pd;
                    for (Pair pair : pairs) {
                        Labelled d = moveLast(pair.d(), pair.index());
                        Labelled e = pair.dPrime().n() >= pair.d().n() ? moveLast(pair.dPrime(), pair.index()) : pair.dPrime();
                        int common = Math.min(d.n(), e.n()) - (rel == NeighbouringRelation.REPLACE_ONE ? 1 : 0);
                        boolean seenV = false;
                        boolean seenT = false;
                        for (long seed = 1; seed < 60 && !(seenV && seenT); seed++) {
                            PrivateSelection.Outcome od = run(pd, d, seed);
                            PrivateSelection.Outcome oe = run(pe, e, seed);
                            // the coins of the common records are the same
                            assertThat(below(od.validationRows(), common)).as("%s seed %d", pair, seed)
                                    .isEqualTo(below(oe.validationRows(), common));
                            // the differing record is the last row of the longer dataset (of both, under replace-one)
                            boolean differingInV = d.n() >= e.n() ? contains(od.validationRows(), d.n() - 1)
                                    : contains(oe.validationRows(), e.n() - 1);
                            if (differingInV) {
                                seenV = true;
                                inV[0]++;
                                // T is the same, so is every model; each count moves by at most 1
                                assertThat(od.chosen().label().equals(oe.chosen().label()) || differs(od, oe)).isTrue();
                                assertThat(od.exactCounts().length).isEqualTo(oe.exactCounts().length);
                                if (od.releasedCounts() != null) {
                                    // the count vector's L2 sensitivity is sqrt(m), the noise is calibrated to it
                                    double l2 = 0;
                                    for (int c = 0; c < od.exactCounts().length; c++) {
                                        l2 += Math.pow(od.exactCounts()[c] - oe.exactCounts()[c], 2);
                                    }
                                    int m = od.exactCounts().length;
                                    assertThat(Math.sqrt(l2)).isLessThanOrEqualTo(Math.sqrt(m) + 1e-12);
                                    if (Math.abs(Math.sqrt(l2) - Math.sqrt(m)) < 1e-12) {
                                        vectorAttained[0]++;
                                    }
                                    assertThat((Double) pd.describe().get("validation_count_noise_std"))
                                            .isEqualTo(pd.scoreNoiseMultiplier() * Math.sqrt(m));
                                }
                                for (int c = 0; c < od.exactCounts().length; c++) {
                                    double diff = Math.abs(od.exactCounts()[c] - oe.exactCounts()[c]);
                                    assertThat(diff).as("%s %s %s seed %d count %d", rel, strategy, pair, seed, c).isLessThanOrEqualTo(1.0);
                                    if (diff == 1.0) {
                                        attained[0]++;
                                    }
                                }
                                if (od.releasedCounts() != null) {
                                    for (int c = 0; c < od.releasedCounts().length; c++) {
                                        double diff = Math.abs(od.releasedCounts()[c] - oe.releasedCounts()[c]);
                                        // the same noise on counts that differ by at most 1 (up to the sampler's rounding)
                                        assertThat(diff).isLessThanOrEqualTo(1.0 + 1e-6);
                                    }
                                }
                                if (Arrays.equals(od.exactCounts(), oe.exactCounts())) {
                                    // the same counts and the same noise: the same run wins, with the same model
                                    assertThat(od.chosen()).isEqualTo(oe.chosen());
                                    assertThat(sameModel(od.model(), oe.model())).as("%s %s %s seed %d", strategy, cands, pair, seed).isTrue();
                                }
                            } else {
                                seenT = true;
                                inT[0]++;
                                assertThat(od.validationRows()).isEqualTo(oe.validationRows());
                            }
                        }
                        assertThat(seenV && seenT).as("%s: both parts met", pair).isTrue();
                    }
                }
            }
        }
        assertThat(inV[0]).isPositive();
        assertThat(inT[0]).isPositive();
        assertThat(attained[0]).as("the sensitivity 1 is attained").isPositive();
        assertThat(vectorAttained[0]).as("the vector's sensitivity sqrt(m) is attained").isPositive();
    }

    /** The winners can differ only when their noisy counts are close: the counts moved by at most 1. */
    static boolean differs(PrivateSelection.Outcome a, PrivateSelection.Outcome b) {
        return Math.abs(a.noisyCount() - b.noisyCount()) <= 1.0 + 1e-6 || a.releasedCounts() == null;
    }

    static int[] below(int[] rows, int n) {
        return Arrays.stream(rows).filter(i -> i < n).toArray();
    }

    static boolean contains(int[] rows, int i) {
        return Arrays.stream(rows).anyMatch(r -> r == i);
    }

    static boolean sameModel(Network a, Network b) {
        if (a.layers() != b.layers()) {
            return false;
        }
        for (int l = 0; l < a.layers(); l++) {
            if (!Arrays.equals(a.weights(l).data(), b.weights(l).data())) {
                return false;
            }
        }
        return true;
    }

    /** Under replace-one the plan needs no n at all when no candidate reveals it: any n gives the same event. */
    @Test
    void planOfSizeFreeCandidatesIgnoresN() {
        MethodConfig c = config("ncm,lda", "auto");
        List<Object> events = new ArrayList<>();
        for (int n : new int[] {10, 1000, 100000}) {
            events.add(PrivateSelection.plan(c, n, 5, 4, 2, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE).event());
        }
        assertThat(events).containsOnly(events.get(0));
        assertThat(PrivateSelection.revealsSize(PrivateSelection.candidates(c))).isFalse();
        assertThat(PrivateSelection.revealsSize(PrivateSelection.candidates(config("ncm,dp-sgd", "auto")))).isTrue();
    }
}
