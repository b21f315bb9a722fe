package org.privadapt.models.uda;

import java.util.Arrays;

/**
 * Settings of paper 004's target-side adaptation (Eq. 7) and of its "with source" DANN/CDAN baseline. The loss the
 * adapted encoder minimises is
 * <pre>  adversarialWeight * (-grl_p) * L_adv + kdWeight * L_KD + imWeight * (L_ent + diversityWeight * L_div)
 *       [+ sourceWeight * L_cls on labelled source rows, with source only]</pre>
 * (unit weights in the paper, which gives none). See {@link UdaLosses} for each term.
 *
 * @param adversary             none, DANN (Eq. 9) or CDAN (Eq. 11)
 * @param mode                  softmax (the paper's literal losses) or per-label sigmoid (multi-label)
 * @param adversarialWeight     weight of the reversed adversarial gradient reaching the encoder (1)
 * @param kdWeight              weight of L_KD (1)
 * @param temperature           KD temperature t (20, after Ryu and Lee 2020)
 * @param imWeight              weight of L_IM = L_ent + diversityWeight * L_div (1)
 * @param diversityWeight       relative weight of L_div inside L_IM (1, the paper's; lower it for rare labels in SIGMOID)
 * @param sourceWeight          weight of the source classification loss (with source only; 1)
 * @param discriminatorHidden   hidden widths of D, ReLU, then one logit (default 256-256; the notes' 1024-1024 is
 *                              the paper-size choice)
 * @param batchSize             target rows per iteration; as many source features are drawn (32)
 * @param epochs                passes over the target rows (10)
 * @param lrEncoder             AdamW rate of the encoder (and of the classifier with source) (1e-5, the paper's)
 * @param lrDiscriminator       AdamW rate of D (1e-5, the paper's)
 * @param weightDecay           AdamW's decoupled weight decay (0.01, PyTorch's default; 0 gives Adam)
 * @param grl                   the gradient reversal coefficient over training (constant 1, the notes' choice)
 * @param cdanThroughPrediction CDAN: whether the adversarial gradient also flows through g = the classifier's
 *                              probabilities into the encoder (Long et al.'s formulation) or g is held constant
 *                              (their released code detaches it; default false)
 * @param cdanRandomDim         output width of the randomised multilinear map (1024)
 * @param cdanExactLimit        the exact outer product is used while d_f * K &lt;= this (4096), else the randomised map
 * @param seed                  seeds D's initialisation, the batches, the source draws and the random map
 */
public record AdaptationConfig(Adversary adversary, OutputMode mode, double adversarialWeight, double kdWeight, double temperature,
                               double imWeight, double diversityWeight, double sourceWeight, int[] discriminatorHidden,
                               int batchSize, int epochs, double lrEncoder, double lrDiscriminator, double weightDecay,
                               GrlSchedule grl, boolean cdanThroughPrediction, int cdanRandomDim, int cdanExactLimit, long seed) {

    /** The gradient reversal coefficient lambda_p at training progress p in [0, 1). */
    public enum GrlSchedule {
        /** lambda = 1 throughout (the notes' [A] for paper 004). */
        CONSTANT,
        /** DANN's warm-up lambda_p = 2 / (1 + exp(-10 p)) - 1 (Ganin et al. 2016), 0 at the start, near 1 from p = 0.5. */
        DANN;

        public double at(double p) {
            return this == CONSTANT ? 1.0 : 2.0 / (1.0 + Math.exp(-10 * p)) - 1.0;
        }
    }

    public AdaptationConfig {
        if (adversary == null || mode == null || grl == null) {
            throw new IllegalArgumentException("adversary, mode and grl schedule are required");
        }
        for (double w : new double[] {adversarialWeight, kdWeight, imWeight, diversityWeight, sourceWeight, weightDecay}) {
            if (!(w >= 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("loss weights and weight decay must be finite and >= 0");
            }
        }
        if (!(temperature > 0) || batchSize < 1 || epochs < 1 || !(lrEncoder > 0) || !(lrDiscriminator > 0)
                || cdanRandomDim < 1 || cdanExactLimit < 1) {
            throw new IllegalArgumentException("need temperature > 0, batchSize >= 1, epochs >= 1, positive learning rates "
                    + "and positive CDAN sizes");
        }
        discriminatorHidden = discriminatorHidden.clone();
        for (int h : discriminatorHidden) {
            if (h < 1) {
                throw new IllegalArgumentException("discriminator widths must be positive: " + Arrays.toString(discriminatorHidden));
            }
        }
    }

    @Override
    public int[] discriminatorHidden() {
        return discriminatorHidden.clone();
    }

    /** Defaults as documented on the record's parameters. */
    public static Builder builder(Adversary adversary, OutputMode mode) {
        return new Builder(adversary, mode);
    }

    public Builder toBuilder() {
        Builder b = new Builder(adversary, mode);
        b.adversarialWeight = adversarialWeight;
        b.kdWeight = kdWeight;
        b.temperature = temperature;
        b.imWeight = imWeight;
        b.diversityWeight = diversityWeight;
        b.sourceWeight = sourceWeight;
        b.discriminatorHidden = discriminatorHidden.clone();
        b.batchSize = batchSize;
        b.epochs = epochs;
        b.lrEncoder = lrEncoder;
        b.lrDiscriminator = lrDiscriminator;
        b.weightDecay = weightDecay;
        b.grl = grl;
        b.cdanThroughPrediction = cdanThroughPrediction;
        b.cdanRandomDim = cdanRandomDim;
        b.cdanExactLimit = cdanExactLimit;
        b.seed = seed;
        return b;
    }

    /** A short description for provenance records. */
    public String describe() {
        return String.format(java.util.Locale.ROOT,
                "%s/%s adv=%g kd=%g(t=%g) im=%g(div=%g) src=%g D=%s batch=%d epochs=%d lrE=%g lrD=%g wd=%g grl=%s cdanGrad=%s seed=%d",
                adversary, mode, adversarialWeight, kdWeight, temperature, imWeight, diversityWeight, sourceWeight,
                Arrays.toString(discriminatorHidden), batchSize, epochs, lrEncoder, lrDiscriminator, weightDecay, grl,
                cdanThroughPrediction, seed);
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private Adversary adversary;
        private OutputMode mode;
        private double adversarialWeight = 1;
        private double kdWeight = 1;
        private double temperature = 20;
        private double imWeight = 1;
        private double diversityWeight = 1;
        private double sourceWeight = 1;
        private int[] discriminatorHidden = {256, 256};
        private int batchSize = 32;
        private int epochs = 10;
        private double lrEncoder = 1e-5;
        private double lrDiscriminator = 1e-5;
        private double weightDecay = 0.01;
        private GrlSchedule grl = GrlSchedule.CONSTANT;
        private boolean cdanThroughPrediction = false;
        private int cdanRandomDim = 1024;
        private int cdanExactLimit = 4096;
        private long seed = 0;

        private Builder(Adversary adversary, OutputMode mode) {
            this.adversary = adversary;
            this.mode = mode;
        }

        public Builder adversary(Adversary a) {
            adversary = a;
            return this;
        }

        public Builder mode(OutputMode m) {
            mode = m;
            return this;
        }

        public Builder adversarialWeight(double w) {
            adversarialWeight = w;
            return this;
        }

        public Builder kd(double weight, double t) {
            kdWeight = weight;
            temperature = t;
            return this;
        }

        public Builder im(double weight, double diversity) {
            imWeight = weight;
            diversityWeight = diversity;
            return this;
        }

        public Builder sourceWeight(double w) {
            sourceWeight = w;
            return this;
        }

        public Builder discriminatorHidden(int... widths) {
            discriminatorHidden = widths.clone();
            return this;
        }

        public Builder batchSize(int b) {
            batchSize = b;
            return this;
        }

        public Builder epochs(int e) {
            epochs = e;
            return this;
        }

        public Builder learningRates(double encoder, double discriminator) {
            lrEncoder = encoder;
            lrDiscriminator = discriminator;
            return this;
        }

        public Builder weightDecay(double wd) {
            weightDecay = wd;
            return this;
        }

        public Builder grl(GrlSchedule s) {
            grl = s;
            return this;
        }

        public Builder cdan(boolean throughPrediction, int randomDim, int exactLimit) {
            cdanThroughPrediction = throughPrediction;
            cdanRandomDim = randomDim;
            cdanExactLimit = exactLimit;
            return this;
        }

        public Builder seed(long s) {
            seed = s;
            return this;
        }

        public AdaptationConfig build() {
            return new AdaptationConfig(adversary, mode, adversarialWeight, kdWeight, temperature, imWeight, diversityWeight,
                    sourceWeight, discriminatorHidden, batchSize, epochs, lrEncoder, lrDiscriminator, weightDecay, grl,
                    cdanThroughPrediction, cdanRandomDim, cdanExactLimit, seed);
        }
    }
}
