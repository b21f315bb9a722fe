package org.privadapt.privacy.noise;

/**
 * A party's noise in repetition {@code run}: secure unless a seed is given. Seeded streams are derived per party so
 * that the two-party commands, {@code run} and the Spark ML stages draw the same numbers for the same seed (the
 * target's stream is the split of the seeded stream, the source keeps the stream after the split). The CLI's
 * {@code --seed} and the stages' {@code seed} Param both come here.
 */
public final class PartyNoise {
    private PartyNoise() {
    }

    /**
     * @param seed  null for secure noise (the default); a seed makes the output NOT differentially private
     * @param party {@code "target"} takes the split stream; any other role the stream after the split
     */
    public static NoiseSource of(Long seed, int run, String party) {
        if (seed == null) {
            return NoiseSource.secure();
        }
        NoiseSource base = NoiseSource.seeded(seed + 1000L * run);
        NoiseSource target = base.split();
        return "target".equals(party) ? target : base;
    }
}
