package org.privadapt.models.uda;

/**
 * The adversarial term of paper 004's Eq. 7: none, DANN (Eq. 9: the discriminator sees the features) or CDAN
 * (Eq. 11: it sees the multilinear map T(f, g) of the features and the classifier's probabilities).
 */
public enum Adversary {
    NONE, DANN, CDAN
}
