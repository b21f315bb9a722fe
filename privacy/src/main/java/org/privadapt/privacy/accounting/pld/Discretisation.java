package org.privadapt.privacy.accounting.pld;

/**
 * How a mechanism's continuous privacy loss distribution is put on the grid {@code h Z}. Both choices are
 * pessimistic: the discretised pair of distributions dominates the mechanism's pair, so every epsilon or delta
 * computed from it (after any number of compositions) is an upper bound on the mechanism's.
 *
 * <p>Write {@code a = P[L in (kh, (k+1)h]]} and {@code b = Q[L in (kh, (k+1)h]] = E_P[e^{-L}; L in (kh, (k+1)h]]}
 * for the P- and Q-mass of the losses between two grid points.
 */
public enum Discretisation {
    /**
     * Pessimistic "connect the dots" (Doroshenko, Ghazi, Kamath, Kumar and Manurangsi 2022, Algorithm 1 with all
     * grid points): every loss {@code l} in {@code (kh, (k+1)h]} is split between the two grid points so that both
     * its P-mass and its Q-mass are kept, which puts {@code (a - e^{kh} b) / (1 - e^{-h})} on {@code (k+1)h} and
     * the rest of {@code a} on {@code kh}. The hockey-stick curve of the result is the chord interpolation of the
     * mechanism's curve in {@code x = e^eps} between grid points, which lies above the (convex) curve itself;
     * it is exact at grid points. The loss gains only O(h^2) bias per mechanism, so thousands of compositions stay
     * tight. The default.
     */
    CONNECT_THE_DOTS,

    /**
     * Privacy loss bucketing rounded up (Meiser and Mohammadi 2018; Sommer, Meiser and Mohammadi 2019; Koskela,
     * Jalko and Honkela 2020): all of {@code a} goes to {@code (k+1)h}. Simple and clearly pessimistic (every loss
     * only grows), but each mechanism's loss grows by about {@code h/2} on average, so after {@code n}
     * compositions epsilon is over-stated by up to about {@code n h / 2}: with {@code h = 1e-4} that is 0.11 after
     * 2250 steps and 1.0 after 20000 steps. Kept as a cruder, independent upper bound (it dominates
     * {@link #CONNECT_THE_DOTS}, since moving the whole atom up dominates splitting it).
     */
    ROUND_UP
}
