package org.privadapt.methods.core;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.dp.DpSgdConfig;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.dp.SeparateSampling;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * DP-SGD training of the downstream classifier ({@code lr}: multinomial logistic regression; {@code dnn}: a
 * network with hidden layers), planned so that its cost is known, and charged, before any noise is drawn.
 *
 * <p>Method parameters (all public, none read from data): {@code clip} (C, default 1), {@code epochs} (default 10),
 * {@code batch} (expected batch size B, default 256), {@code lr} (default 0.005), {@code optimizer} (adam, sgd,
 * momentum; default adam), {@code schedule} (default constant), {@code weight-decay} (default 0.1), {@code hidden}
 * (dnn widths, default 50), {@code activation} (default relu), {@code physical-batch} (default 256). The defaults were
 * chosen with dp-source-only at epsilon 2 on six Office-Caltech10 tasks (docs/results/prima.md).
 *
 * <p>The sampling rate is {@code q = B / n} with n the training set's size, and the noisy sum is divided by B: the
 * plan, and so the model's statement, reveals n. Callers therefore require n to be public first
 * ({@link Disclosures}): declared public by the party (as Opacus and TF Privacy assume when they derive q from the
 * data loader), or public by the relation (replace-one). The number of steps is {@code ceil(epochs / q)}; the noise
 * multiplier is the smallest that keeps those steps within the (epsilon, delta) given to the plan, in the RDP
 * accountant under the session's relation (under replace-one, the subsampled Gaussian's replace-one bound).
 */
public final class PrivateTraining {
    private PrivateTraining() {
    }

    /** A planned DP-SGD run: its configuration, its privacy event and the epsilon it was calibrated to. */
    public record Plan(String classifier, int[] hidden, Activation activation, DpSgdConfig config, DpEvent event,
                       double epsilon, double delta) {
        public Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("classifier", classifier);
            if (hidden.length > 0) {
                m.put("hidden", Arrays.toString(hidden));
            }
            m.put("clip", config.clipNorm());
            m.put("noise_multiplier", config.noiseMultiplier());
            m.put("sample_rate", config.samplingRate());
            m.put("steps", config.steps());
            m.put("optimizer", config.optimizer());
            m.put("lr", config.learningRate());
            return m;
        }
    }

    public static Plan plan(MethodConfig c, int n, double epsilon, double delta, NeighbouringRelation relation) {
        return plan(c, n, epsilon, delta, relation, null, 1);
    }

    /**
     * A plan for {@code runs} trainings on the same records (one-vs-rest models, per-subspace models), composed
     * after a {@code prior} release of the same party (or null): the noise multiplier is the smallest for which the
     * whole composition stays within (epsilon, delta). The plan's event is the runs' part only.
     */
    public static Plan plan(MethodConfig c, int n, double epsilon, double delta, NeighbouringRelation relation,
                            DpEvent prior, int runs) {
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be >= 1, got " + runs);
        }
        if (n < 1) {
            throw new IllegalArgumentException("no training examples");
        }
        String classifier = c.classifier();
        int[] hidden;
        switch (classifier) {
            case "lr":
                hidden = new int[0];
                break;
            case "dnn":
                hidden = parseHidden(c.params().getOrDefault("hidden", "50"));
                break;
            default:
                throw new IllegalArgumentException("unknown classifier '" + classifier + "' for private training (lr, dnn)");
        }
        double clip = c.param("clip", 1.0);
        double epochs = c.param("epochs", 10);
        if (!(epochs > 0) || Double.isInfinite(epochs)) {
            throw new IllegalArgumentException("epochs must be a finite number > 0, got " + epochs);
        }
        double batch = c.param("batch", 256);
        if (!(batch >= 1)) {
            throw new IllegalArgumentException("batch must be >= 1, got " + batch);
        }
        double q = Math.min(1.0, batch / n);
        long steps = Math.max(1, (long) Math.ceil(epochs / q));
        RdpAccountant rdp = new RdpAccountant(relation, RdpAccountant.DEFAULT_ORDERS, w -> { });
        java.util.function.DoubleFunction<DpEvent> family = s -> {
            DpEvent training = new org.privadapt.privacy.events.SelfComposedEvent(NoiseCalibration.dpSgdEvent(s, q, steps), runs);
            return prior == null ? training : org.privadapt.privacy.events.ComposedEvent.of(prior, training);
        };
        double sigma = NoiseCalibration.smallest(family, rdp, epsilon, delta, runs + " x " + steps + " DP-SGD steps");
        DpSgdConfig cfg = new DpSgdConfig(clip, sigma, q, q * n, steps, c.intParam("physical-batch", 256),
                c.params().getOrDefault("optimizer", "adam"), c.param("lr", 0.005), c.params().getOrDefault("schedule", "constant"),
                c.param("weight-decay", 0.1), c.seed());
        Activation act = Activation.parse(c.params().getOrDefault("activation", "relu"));
        DpEvent event = runs == 1 ? DpSgdTrainer.event(cfg)
                : new org.privadapt.privacy.events.SelfComposedEvent(DpSgdTrainer.event(cfg), runs);
        return new Plan(classifier, hidden, act, cfg, event, epsilon, delta);
    }

    static int[] parseHidden(String s) {
        String[] p = s.split("[,;:x]");
        int[] h = new int[p.length];
        for (int i = 0; i < p.length; i++) {
            h[i] = Integer.parseInt(p[i].trim());
        }
        return h;
    }

    /** Trains per the plan; the plan's event must already be charged. */
    public static Network train(Plan p, FeatureMatrix x, int[] labels, List<String> classes, NoiseSource noise) {
        return DpSgdTrainer.train(initial(p, x.cols(), classes), x, labels, p.config(), SeparateSampling.forRun(noise)).model();
    }

    /** The planned network's data-independent initialisation for d features and the classes. */
    public static Network initial(Plan p, int d, List<String> classes) {
        return Network.create(d, p.hidden(), p.activation(), classes, p.config().initSeed());
    }

    /**
     * Trains per the plan over n records whose clipped batch sums come from {@code sums} (the spark module's for
     * DP-GD); the plan's event must already be charged. {@link #train(Plan, FeatureMatrix, int[], List, NoiseSource)}
     * is this with the in-process sums.
     */
    public static Network train(Plan p, int n, DpSgdTrainer.BatchSums sums, int d, List<String> classes, NoiseSource noise) {
        return train(p, n, sums, d, classes, SeparateSampling.forRun(noise));
    }

    /** {@link #train(Plan, int, DpSgdTrainer.BatchSums, int, List, NoiseSource)} with the given randomness. */
    public static Network train(Plan p, int n, DpSgdTrainer.BatchSums sums, int d, List<String> classes,
                                org.privadapt.models.dp.NoiseAndSampling rnd) {
        return DpSgdTrainer.train(initial(p, d, classes), n, sums, p.config(), rnd).model();
    }
}
