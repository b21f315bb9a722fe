package org.privadapt.models.uda;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Optimizer;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.MultilinearMap;
import org.privadapt.models.nn.graph.PerExample;
import org.privadapt.models.nn.graph.Stack;

/**
 * The iteration shared by {@link SourceFreeAdaptation} and {@link WithSourceAdaptation}: the encoder (and, with
 * source, the classifier) and the discriminator D, their AdamW optimisers, and one iteration's gradients. All work is
 * batched: one forward and one backward pass per module and batch, and per-layer gradients as one product
 * {@code A^T Delta} ({@link PerExample#weightedSum}).
 *
 * <p>Gradient reversal as in paper 001's trainer: D is back-propagated with its input error, which reaches the
 * encoder multiplied by {@code -lambda * adversarialWeight}.
 */
final class AdaptationTrainer {
    private final AdaptationConfig c;
    private final Stack encoder;
    private final Stack classifier;
    private final Stack discriminator; // null without adversary
    private final MultilinearMap map; // CDAN only
    private final boolean updateClassifier;
    private final List<DenseLayer> modelLayers; // trainable: the encoder's, plus the classifier's with source
    private final Optimizer modelOpt;
    private final Optimizer discOpt;

    /**
     * @param encoder          trained in place (pass a copy)
     * @param classifier       trained in place with {@code updateClassifier}, else only read
     */
    AdaptationTrainer(Stack encoder, Stack classifier, AdaptationConfig c, boolean updateClassifier, SplittableRandom initRng) {
        if (encoder.out() != classifier.in()) {
            throw new IllegalArgumentException("the encoder gives " + encoder.out() + " features, the classifier takes " + classifier.in());
        }
        this.c = c;
        this.encoder = encoder;
        this.classifier = classifier;
        this.updateClassifier = updateClassifier;
        int df = encoder.out();
        int k = classifier.out();
        if (c.adversary() == Adversary.CDAN) {
            map = (long) df * k <= c.cdanExactLimit() ? MultilinearMap.exact(df, k)
                    : MultilinearMap.randomized(df, k, c.cdanRandomDim(), initRng.nextLong());
        } else {
            map = null;
        }
        if (c.adversary() != Adversary.NONE) {
            int[] hidden = c.discriminatorHidden();
            int[] sizes = new int[hidden.length + 2];
            sizes[0] = map == null ? df : map.outputWidth();
            System.arraycopy(hidden, 0, sizes, 1, hidden.length);
            sizes[sizes.length - 1] = 1;
            discriminator = Stack.create(sizes, Activation.RELU, Activation.IDENTITY, initRng);
        } else {
            discriminator = null;
        }
        modelLayers = new ArrayList<>();
        encoder.layers().stream().filter(l -> !l.frozen()).forEach(modelLayers::add);
        if (updateClassifier) {
            classifier.layers().stream().filter(l -> !l.frozen()).forEach(modelLayers::add);
        }
        modelOpt = Optimizer.adamW(0.9, 0.999, 1e-8, c.weightDecay());
        discOpt = Optimizer.adamW(0.9, 0.999, 1e-8, c.weightDecay());
    }

    Stack discriminator() {
        return discriminator;
    }

    MultilinearMap map() {
        return map;
    }

    /**
     * One iteration's inputs: target rows and their teacher logits (null without KD); the source side is either
     * sampled features (source-free; null without adversary) or a labelled source batch (with source).
     */
    record Batch(FeatureMatrix target, DenseMatrix teacherLogits, DenseMatrix sourceFeatures, FeatureMatrix sourceX,
                 DenseMatrix sourceTargets) {
    }

    /**
     * One iteration's loss values (NaN when off), the encoder's objective
     * {@code kdW L_KD + imW (L_ent + divW L_div) - lambda advW L_adv + srcW L_cls} whose gradient {@code modelGrads}
     * is, the error dObjective/df at the target features, and D's gradient of L_adv.
     */
    record Result(double kd, double entropy, double diversity, double adversarial, double discriminatorAccuracy,
                  double sourceClassification, double objective, DenseMatrix targetFeatureError,
                  Map<DenseLayer, PerExample.Grad> modelGrads, Map<DenseLayer, PerExample.Grad> discGrads) {
    }

    Result gradients(Batch b, double lambda) {
        OutputMode mode = c.mode();
        Stack.Pass pe = encoder.forward(b.target());
        DenseMatrix f = pe.output();
        int n = f.rows();
        Stack.Pass pc = classifier.forward(f);
        DenseMatrix u = pc.output();
        DenseMatrix dU = DenseMatrix.zeros(n, u.cols());
        DenseMatrix dF = DenseMatrix.zeros(n, f.cols());
        double objective = 0;
        double kd = Double.NaN;
        double ent = Double.NaN;
        double div = Double.NaN;
        double adv = Double.NaN;
        double acc = Double.NaN;
        double cls = Double.NaN;
        if (c.kdWeight() > 0) {
            UdaLosses.Loss l = UdaLosses.distillation(mode, u, b.teacherLogits(), c.temperature());
            kd = l.value();
            objective += c.kdWeight() * kd;
            dU.addScaledInPlace(c.kdWeight(), l.gradient());
        }
        if (c.imWeight() > 0) {
            UdaLosses.Loss le = UdaLosses.entropy(mode, u);
            UdaLosses.Loss ld = UdaLosses.diversity(mode, u);
            ent = le.value();
            div = ld.value();
            objective += c.imWeight() * (ent + c.diversityWeight() * div);
            dU.addScaledInPlace(c.imWeight(), le.gradient());
            dU.addScaledInPlace(c.imWeight() * c.diversityWeight(), ld.gradient());
        }
        // the labelled source batch (with source)
        Stack.Pass ps = null;
        Stack.Pass pcs = null;
        DenseMatrix fs = null;
        DenseMatrix us = null;
        DenseMatrix dUs = null;
        DenseMatrix dFs = null;
        if (b.sourceX() != null) {
            ps = encoder.forward(b.sourceX());
            fs = ps.output();
            pcs = classifier.forward(fs);
            us = pcs.output();
            UdaLosses.Loss l = UdaLosses.crossEntropy(mode, us, b.sourceTargets());
            cls = l.value();
            objective += c.sourceWeight() * cls;
            dUs = l.gradient();
            dUs.scaleInPlace(c.sourceWeight());
            dFs = DenseMatrix.zeros(fs.rows(), fs.cols());
        }
        Map<DenseLayer, PerExample.Grad> discGrads = null;
        if (discriminator != null) {
            DenseMatrix zs = fs != null ? fs : b.sourceFeatures();
            if (zs == null || zs.cols() != f.cols()) {
                throw new IllegalArgumentException("the adversary needs source features with " + f.cols() + " columns");
            }
            int ns = zs.rows();
            DenseMatrix gs = null;
            DenseMatrix gt = null;
            DenseMatrix hs = zs;
            DenseMatrix ht = f;
            if (map != null) {
                gs = mode.probabilities(us != null ? us : classifier.forward(zs).output());
                gt = mode.probabilities(u);
                hs = map.forward(zs, gs);
                ht = map.forward(f, gt);
            }
            Stack.Pass pd = discriminator.forward(hs.vstack(ht));
            UdaLosses.Loss la = UdaLosses.domainCrossEntropy(pd.output(), ns);
            adv = la.value();
            objective -= lambda * c.adversarialWeight() * adv;
            acc = accuracy(pd.output(), ns);
            Stack.Errors ed = discriminator.backward(pd, la.gradient(), true);
            discGrads = new IdentityHashMap<>();
            accumulate(discGrads, discriminator, pd, ed);
            double rev = -lambda * c.adversarialWeight();
            if (rev != 0) {
                DenseMatrix dH = ed.inputError();
                reverse(dH.selectRows(range(ns, ns + n)), f, gt, rev, dF, dU);
                if (fs != null) {
                    reverse(dH.selectRows(range(0, ns)), fs, gs, rev, dFs, dUs);
                }
            }
        }
        Map<DenseLayer, PerExample.Grad> grads = new IdentityHashMap<>();
        backward(pe, pc, dU, dF, grads);
        if (ps != null) {
            backward(ps, pcs, dUs, dFs, grads);
        }
        return new Result(kd, ent, div, adv, acc, cls, objective, dF, grads, discGrads);
    }

    /** Adds the reversed adversarial error at D's input rows {@code dH} into the errors at the features and logits. */
    private void reverse(DenseMatrix dH, DenseMatrix f, DenseMatrix g, double rev, DenseMatrix dF, DenseMatrix dU) {
        if (map == null) {
            dF.addScaledInPlace(rev, dH);
            return;
        }
        DenseMatrix[] e = map.backward(f, g, dH);
        dF.addScaledInPlace(rev, e[0]);
        if (c.cdanThroughPrediction()) {
            dU.addScaledInPlace(rev, UdaLosses.probabilityToLogitError(c.mode(), g, e[1]));
        }
    }

    /** Logit error through C (into dF, in place) and feature error through the encoder; trainable layers' gradients. */
    private void backward(Stack.Pass pe, Stack.Pass pc, DenseMatrix dU, DenseMatrix dF, Map<DenseLayer, PerExample.Grad> grads) {
        Stack.Errors ec = classifier.backward(pc, dU, true);
        dF.addScaledInPlace(1.0, ec.inputError());
        if (updateClassifier) {
            accumulate(grads, classifier, pc, ec);
        }
        Stack.Errors ee = encoder.backward(pe, dF, false);
        accumulate(grads, encoder, pe, ee);
    }

    /** One optimiser step for the model (encoder, and classifier with source) and one for D. */
    void apply(Result r) {
        modelOpt.step(params(modelLayers), grads(modelLayers, r.modelGrads()), c.lrEncoder());
        if (discriminator != null) {
            discOpt.step(params(discriminator.layers()), grads(discriminator.layers(), r.discGrads()), c.lrDiscriminator());
        }
    }

    /**
     * Trains for {@code c.epochs()} shuffled passes over the target rows. {@code teacher} holds C_s(E_s(x)) for every
     * target row (null without KD); source-free: {@code sampler} draws as many source features as target rows per
     * iteration; with source: {@code sourceX} rows and {@code sourceTargets} are drawn in shuffled passes.
     */
    TrainingHistory train(FeatureMatrix target, DenseMatrix teacher, SourceFeatureSampler sampler, FeatureMatrix sourceX,
                          DenseMatrix sourceTargets, SplittableRandom batchRng, SplittableRandom sourceRng) {
        int nt = target.rows();
        int bs = Math.min(c.batchSize(), nt);
        long perEpoch = (nt + bs - 1) / bs;
        long total = perEpoch * c.epochs();
        int[] order = identity(nt);
        int[] sourceOrder = sourceX == null ? null : identity(sourceX.rows());
        int sourcePos = sourceOrder == null ? 0 : sourceOrder.length; // forces a shuffle at the first draw
        List<TrainingHistory.Epoch> epochs = new ArrayList<>();
        long it = 0;
        for (int e = 0; e < c.epochs(); e++) {
            shuffle(order, batchRng);
            double[] sum = new double[6];
            int steps = 0;
            for (int from = 0; from < nt; from += bs) {
                int[] idx = Arrays.copyOfRange(order, from, Math.min(nt, from + bs));
                DenseMatrix z = null;
                FeatureMatrix xs = null;
                DenseMatrix ys = null;
                if (sourceX != null) {
                    int[] sidx = new int[idx.length];
                    for (int i = 0; i < sidx.length; i++) {
                        if (sourcePos == sourceOrder.length) {
                            shuffle(sourceOrder, sourceRng);
                            sourcePos = 0;
                        }
                        sidx[i] = sourceOrder[sourcePos++];
                    }
                    xs = sourceX.selectRows(sidx);
                    ys = sourceTargets.selectRows(sidx);
                } else if (discriminator != null) {
                    z = sampler.sample(idx.length, sourceRng);
                }
                Batch b = new Batch(target.selectRows(idx), teacher == null ? null : teacher.selectRows(idx), z, xs, ys);
                Result r = gradients(b, c.grl().at((double) it / total));
                apply(r);
                double[] v = {r.adversarial(), r.discriminatorAccuracy(), r.kd(), r.entropy(), r.diversity(), r.sourceClassification()};
                for (int q = 0; q < v.length; q++) {
                    sum[q] += v[q];
                }
                steps++;
                it++;
            }
            epochs.add(new TrainingHistory.Epoch(e + 1, sum[0] / steps, sum[1] / steps, sum[2] / steps, sum[3] / steps,
                    sum[4] / steps, sum[5] / steps));
        }
        return new TrainingHistory(epochs);
    }

    private static double accuracy(DenseMatrix o, int sourceRows) {
        double[] d = o.data();
        int ok = 0;
        for (int i = 0; i < d.length; i++) {
            ok += (d[i] > 0) == (i < sourceRows) ? 1 : 0;
        }
        return (double) ok / d.length;
    }

    /** Adds the trainable layers' summed gradients of one backward pass into {@code into}. */
    private static void accumulate(Map<DenseLayer, PerExample.Grad> into, Stack s, Stack.Pass p, Stack.Errors e) {
        List<PerExample.Piece> pieces = new ArrayList<>();
        PerExample.collect(s, p, e, pieces);
        if (pieces.isEmpty()) {
            return;
        }
        for (Map.Entry<DenseLayer, PerExample.Grad> en : PerExample.weightedSum(pieces, null).entrySet()) {
            PerExample.Grad old = into.get(en.getKey());
            if (old == null) {
                into.put(en.getKey(), en.getValue());
            } else {
                old.w().addScaledInPlace(1.0, en.getValue().w());
                double[] b = old.b();
                double[] a = en.getValue().b();
                for (int k = 0; k < b.length; k++) {
                    b[k] += a[k];
                }
            }
        }
    }

    private static double[][] params(List<DenseLayer> layers) {
        double[][] out = new double[2 * layers.size()][];
        for (int l = 0; l < layers.size(); l++) {
            out[2 * l] = layers.get(l).weights().data();
            out[2 * l + 1] = layers.get(l).bias();
        }
        return out;
    }

    private static double[][] grads(List<DenseLayer> layers, Map<DenseLayer, PerExample.Grad> g) {
        double[][] out = new double[2 * layers.size()][];
        for (int l = 0; l < layers.size(); l++) {
            DenseLayer layer = layers.get(l);
            PerExample.Grad x = g.get(layer);
            out[2 * l] = x == null ? new double[layer.in() * layer.out()] : x.w().data();
            out[2 * l + 1] = x == null ? new double[layer.out()] : x.b();
        }
        return out;
    }

    static int[] range(int from, int to) {
        int[] r = new int[to - from];
        for (int i = 0; i < r.length; i++) {
            r[i] = from + i;
        }
        return r;
    }

    private static int[] identity(int n) {
        return range(0, n);
    }

    private static void shuffle(int[] a, SplittableRandom rng) {
        for (int i = a.length - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}
