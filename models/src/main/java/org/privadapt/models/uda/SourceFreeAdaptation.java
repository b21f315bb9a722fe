package org.privadapt.models.uda;

import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.graph.Stack;

/**
 * The target side of paper 004 (An et al. 2022, "Privacy-preserving unsupervised domain adaptation in federated
 * setting", Step 3, Eq. 7; the notes' methods-001-003-004.md 4.2): the target adapts its own encoder E_t, initialised
 * from the source's released encoder E_s, with the released classifier C <b>fixed</b> and source features drawn from
 * what the source released (a Gaussian mixture, or any {@link SourceFeatureSampler}). Per iteration, with a target
 * batch x_j and as many source draws z_i:
 * <pre>
 *   f_j = E_t(x_j),  u_j = C(f_j)
 *   L_adv : D tells z_i (label 1) from f_j (label 0) by BCE; D minimises it (Eqs. 8-11, sign repaired (i)),
 *           E_t receives the reversed gradient (GRL, coefficient lambda_p, {@link AdaptationConfig.GrlSchedule})
 *           DANN (Eq. 9): D(z), D(f);  CDAN (Eq. 11): D(T(z, g(C z))), D(T(f, g(u))), T the multilinear map
 *   L_KD  = t^2 mean_j CE(g(C(E_s(x_j)) / t), g(u_j / t))          (Eq. 5; teacher E_s frozen, on target text, repair (iii))
 *   L_IM  = mean_j H(g(u_j)) + sum_k pbar_k log pbar_k                 (Eq. 6, with probabilities, repair (ii))
 *   E_t  &lt;- AdamW step on  kdW L_KD + imW L_IM - lambda advW L_adv;   D &lt;- AdamW step on L_adv
 * </pre>
 * g is the {@link OutputMode}: softmax (the paper's literal version) or per-label sigmoid (its multi-label task, the
 * binary form of each loss). The gradient reaches E_t through C, whose parameters never change. The teacher's logits
 * C(E_s(x)) are computed once for every target row before training (E_s and C are both fixed).
 *
 * <p>CDAN's map is the exact outer product while d_f K &lt;= {@code cdanExactLimit}, else the randomised map
 * (Long et al. 2018). Whether CDAN's adversarial gradient also flows through g is {@code cdanThroughPrediction}
 * (default no: g is treated as a constant, as CDAN's released code does; with a fixed C that also keeps the
 * adversary from steering predictions, which are KD's and IM's business).
 *
 * <p>Privacy: this runs at the target on the target's own data; it adds nothing to, and assumes nothing about, the
 * guarantee of what the source released (the notes' 4.3: a mixture fitted to private features is not covered by
 * post-processing).
 */
public final class SourceFreeAdaptation {
    private SourceFreeAdaptation() {
    }

    /**
     * @param sourceEncoder E_s (not modified; E_t starts as a copy, frozen layers stay frozen)
     * @param classifier    C (not modified; the returned model holds a copy with the same parameters)
     * @param target        X_t, dense or sparse, unlabelled
     * @param sampler       source features (ignored, and may be null, with {@link Adversary#NONE})
     */
    public static AdaptedModel adapt(Stack sourceEncoder, Stack classifier, FeatureMatrix target, SourceFeatureSampler sampler,
                                     AdaptationConfig c) {
        if (target.cols() != sourceEncoder.in()) {
            throw new IllegalArgumentException("the encoder takes " + sourceEncoder.in() + " features, the target has " + target.cols());
        }
        if (target.rows() < 1) {
            throw new IllegalArgumentException("no target rows");
        }
        if (c.adversary() != Adversary.NONE && sampler == null) {
            throw new IllegalArgumentException(c.adversary() + " needs a source feature sampler");
        }
        SplittableRandom root = new SplittableRandom(c.seed());
        SplittableRandom initRng = root.split();
        SplittableRandom batchRng = root.split();
        SplittableRandom sourceRng = root.split();
        Stack encoder = sourceEncoder.copy();
        Stack fixed = classifier.copy();
        AdaptationTrainer t = new AdaptationTrainer(encoder, fixed, c, false, initRng);
        DenseMatrix teacher = c.kdWeight() > 0 ? AdaptedModel.forward(sourceEncoder, classifier, target) : null;
        TrainingHistory h = t.train(target, teacher, sampler, null, null, batchRng, sourceRng);
        return new AdaptedModel(encoder, fixed, c.mode(), h, "source-free " + c.describe());
    }
}
