package org.privadapt.privacy.events;

/**
 * Poisson subsampling (every record included independently with probability q) followed by a mechanism that
 * releases something <em>per sampled record</em> (for instance each sampled row, projected and noised), not a sum
 * over the sample. The release reveals the sample's size, so it is analysed only under replace-one neighbours.
 *
 * <p>Why a separate event: the amplification analyses behind {@link PoissonSampledEvent} (Mironov, Talwar and Zhang
 * 2019; Koskela et al.) compare the output with and without one record's contribution to a <em>sum</em>; here the
 * output without the record has one row fewer, and those analyses do not apply. What does hold, under replace-one
 * neighbours D (record r) and D' (record r'), coupling the inclusion of every other record: the outputs are mixtures
 * {@code P = (1-q) A + q B} and {@code Q = (1-q) A + q B'} with the <em>same</em> component A (r, r' not sampled)
 * and B, B' the inner mechanism on neighbouring samples. The Rényi quantity {@code E_Q[(P/Q)^alpha]} is jointly
 * convex, so {@code E_Q[(P/Q)^alpha] <= (1-q) + q exp((alpha-1) r_inner(alpha))}, i.e. the RDP curve
 * {@code r(alpha) = log(1 + q (exp((alpha-1) r_inner(alpha)) - 1)) / (alpha - 1)}: amplification linear in q
 * (weaker than the q^2 of sampled sums), and valid for any inner mechanism whose RDP curve is known.
 */
public record PoissonSampledRowsEvent(double samplingProbability, DpEvent event) implements DpEvent {
    public PoissonSampledRowsEvent {
        if (!(samplingProbability >= 0 && samplingProbability <= 1)) {
            throw new IllegalArgumentException("sampling probability must be in [0, 1], got " + samplingProbability);
        }
        java.util.Objects.requireNonNull(event, "event");
        if (event instanceof PoissonSampledEvent || event instanceof PoissonSampledRowsEvent) {
            throw new IllegalArgumentException("nested subsampling is not analysed: " + event.describe());
        }
    }

    @Override
    public String describe() {
        return "PoissonSampledRows(q=" + samplingProbability + ", " + event.describe() + ")";
    }
}
