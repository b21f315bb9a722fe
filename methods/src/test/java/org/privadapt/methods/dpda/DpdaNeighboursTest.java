package org.privadapt.methods.dpda;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.methods.neighbours.Neighbours;
import org.privadapt.methods.neighbours.ReleaseComparison;
import org.privadapt.models.dann.AdversarialNetwork;
import org.privadapt.models.dann.AdversarialTrainer;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.PerExample;
import org.privadapt.privacy.NeighbouringRelation;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The neighbouring-dataset harness for DPDA and G-DPDA (docs/privacy/testing.md, docs/privacy/dpda.md): the query
 * each noisy step releases, the sum over the batch of every example's gradient over all parameters it reaches (the
 * domain head and the feature extractor; for the source's label step the label head and the extractor), clipped
 * jointly, moves by at most C between add/remove neighbours and 2C between replace-one neighbours; the paper's
 * separate clipping by up to sqrt(2) times that. The plan (the DP events) is identical for replace-one neighbours and
 * under add/remove depends on n alone.
 */
class DpdaNeighboursTest {
    static final NoiseAndSampling NO_NOISE = new NoiseAndSampling() {
        public boolean bernoulli(double p) {
            return true;
        }

        public void addGaussian(double[] v, double sigma) {
        }

        public boolean isPrivate() {
            return false;
        }

        public String description() {
            return "none";
        }
    };

    static double[] flat(Map<DenseLayer, PerExample.Grad> g, List<DenseLayer> order, int m) {
        List<Double> out = new ArrayList<>();
        for (DenseLayer l : order) {
            PerExample.Grad x = g.get(l);
            for (double v : x.w().data()) {
                out.add(v * m);
            }
            for (double v : x.b()) {
                out.add(v * m);
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    static int[] all(int n) {
        return java.util.stream.IntStream.range(0, n).toArray();
    }

    @Test
    void everyNoisyStepsQueryMovesByAtMostCOrTwoC() {
        double clip = 0.8;
        Neighbours.Labelled base = Neighbours.random(30, 6, 3, 3.0, 1);
        SplittableRandom r = new SplittableRandom(2);
        for (boolean joint : new boolean[] {true, false}) {
            AdversarialTrainer.Config c = new AdversarialTrainer.Config(AdversarialTrainer.Mode.GDPDA, 1, 8, 0.1, 0.1, clip, 1.0, joint);
            for (int init = 0; init < 2; init++) {
                AdversarialNetwork net = AdversarialNetwork.create(6, new int[] {5}, Activation.TANH, base.classNames(), new int[] {4},
                        Activation.RELU, false, 20 + init);
                for (DenseLayer l : net.allLayers()) { // away from the initialisation: larger gradients
                    double[] w = l.weights().data();
                    for (int i = 0; i < w.length; i++) {
                        w[i] += r.nextDouble() * 2 - 1;
                    }
                }
                List<DenseLayer> dom = new ArrayList<>(net.targetDomainHead().layers());
                dom.addAll(net.trunk().layers());
                List<DenseLayer> lab = new ArrayList<>(net.labelHead().layers());
                lab.addAll(net.trunk().layers());
                for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                    List<Neighbours.Pair> pairs = rel == NeighbouringRelation.REPLACE_ONE ? Neighbours.replaceOne(base, 3.0, init)
                            : Neighbours.addRemove(base, 3.0, init);
                    double bound = (rel == NeighbouringRelation.REPLACE_ONE ? 2 * clip : clip) * (joint ? 1 : Math.sqrt(2));
                    for (Neighbours.Pair p : pairs) {
                        // the target's domain step (DPDA and G-DPDA) and the source's two steps (G-DPDA)
                        for (int domain : new int[] {1, 0}) {
                            double[] a = flat(AdversarialTrainer.domainStep(net, net.targetDomainHead(), p.d().matrix(), all(p.d().n()),
                                    domain, c, true, NO_NOISE), dom, c.batch());
                            double[] b = flat(AdversarialTrainer.domainStep(net, net.targetDomainHead(), p.dPrime().matrix(),
                                    all(p.dPrime().n()), domain, c, true, NO_NOISE), dom, c.batch());
                            ReleaseComparison.assertWithin(ReleaseComparison.l2(a, b), bound, 1e-12,
                                    "domain step " + domain + " " + rel + " " + p + " joint=" + joint);
                        }
                        double[] a = flat(AdversarialTrainer.labelStep(net, p.d().matrix(), p.d().y(), all(p.d().n()), c, true, NO_NOISE),
                                lab, c.batch());
                        double[] b = flat(AdversarialTrainer.labelStep(net, p.dPrime().matrix(), p.dPrime().y(), all(p.dPrime().n()), c,
                                true, NO_NOISE), lab, c.batch());
                        ReleaseComparison.assertWithin(ReleaseComparison.l2(a, b), bound, 1e-12,
                                "label step " + rel + " " + p + " joint=" + joint);
                    }
                }
            }
        }
    }

    @Test
    void thePlanDependsOnNAloneAndOnTheClippingMode() {
        AdversarialTrainer.Config c = new AdversarialTrainer.Config(AdversarialTrainer.Mode.DPDA, 100, 32, 0.05, 1e-3, 4, 8, true);
        // replace-one neighbours have the same n: identical events; add/remove changes n, and only n
        assertThat(AdversarialTrainer.targetEvent(c, 2000)).isEqualTo(AdversarialTrainer.targetEvent(c, 2000));
        assertThat(AdversarialTrainer.targetEvent(c, 2000)).isNotEqualTo(AdversarialTrainer.targetEvent(c, 2001));
        AdversarialTrainer.Config sep = new AdversarialTrainer.Config(AdversarialTrainer.Mode.DPDA, 100, 32, 0.05, 1e-3, 4, 8, false);
        assertThat(sep.effectiveSigma()).isEqualTo(8 / Math.sqrt(2));
        assertThat(AdversarialTrainer.sourceEvent(c, 2000).toString()).contains("200");
    }
}
