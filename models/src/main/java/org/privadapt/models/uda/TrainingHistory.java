package org.privadapt.models.uda;

import java.util.List;

/**
 * Per-epoch means of the adaptation's loss terms, for provenance. A term that is off is NaN.
 *
 * @param epochs one entry per epoch, in order
 */
public record TrainingHistory(List<Epoch> epochs) {
    public TrainingHistory {
        epochs = List.copyOf(epochs);
    }

    /**
     * @param adversarial            L_adv, the discriminator's BCE (ln 2 ~ 0.693 when it cannot tell the domains apart)
     * @param discriminatorAccuracy  share of the iteration's source and target rows D classified right
     * @param distillation           L_KD
     * @param entropy                L_ent
     * @param diversity              L_div
     * @param sourceClassification   L_cls on the labelled source batch (with source only)
     */
    public record Epoch(int epoch, double adversarial, double discriminatorAccuracy, double distillation, double entropy,
                        double diversity, double sourceClassification) {
    }

    public Epoch last() {
        return epochs.get(epochs.size() - 1);
    }
}
