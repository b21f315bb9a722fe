package org.privadapt.privacy.noise;

/**
 * The one entry point for noise: a {@link RandomBits} stream and the samplers that draw from it.
 *
 * <ul>
 *   <li>{@link #secure()} (the default): {@link SecureRandomBits}, private.</li>
 *   <li>{@link #seeded(long)}: {@link SeededRandomBits}, reproducible and <b>not private</b>; the first call in a
 *       process prints {@value #SEEDED_WARNING} to standard error.</li>
 * </ul>
 *
 * <p>{@link #samplerDescription()} is the string the privacy ledger records: it names the generator and every
 * sampler, so a result can be traced to the exact noise construction that produced it.
 *
 * <p>A source and its samplers share one bit stream and are confined to one thread; call {@link #split()} to get
 * an independent source for another thread.
 */
public final class NoiseSource {
    /** Printed to standard error once per process when seeded noise is requested. */
    public static final String SEEDED_WARNING =
            "privadapt: WARNING: seeded noise requested; results are NOT differentially private";

    /** The sampler part of {@link #samplerDescription()}, the same for every source. */
    static final String SAMPLERS = "Laplace: exact two-sided geometric on 2^k grid (k = ceil(log2(sensitivity/epsilon)) - 40);"
            + " Gaussian: exact discrete Gaussian (symmetric-binomial design) on 2^k grid (k = ceil(log2(2 sigma)) - 57);"
            + " vectors: 4-draw hardened ziggurat (sigma (Z1+Z2+Z3+Z4)/2)";

    private static final OnceWarning SEEDED = new OnceWarning(SEEDED_WARNING);

    private final RandomBits bits;
    private final SecureLaplaceSampler laplace;
    private final SecureGaussianSampler gaussian;
    private final GaussianVectorSampler vectors;

    private NoiseSource(RandomBits bits) {
        this.bits = bits;
        this.laplace = new SecureLaplaceSampler(bits);
        this.gaussian = new SecureGaussianSampler(bits);
        this.vectors = new GaussianVectorSampler(bits);
    }

    /** Noise from {@link SecureRandomBits}: AES-256-CTR keyed from the JDK's DRBG. */
    public static NoiseSource secure() {
        return new NoiseSource(new SecureRandomBits());
    }

    /**
     * Reproducible noise from {@link SeededRandomBits}, for experiments and tests only: NOT differentially
     * private. Prints {@value #SEEDED_WARNING} to standard error the first time in a process.
     */
    public static NoiseSource seeded(long seed) {
        SEEDED.emit(System.err);
        return new NoiseSource(new SeededRandomBits(seed));
    }

    /** The bit stream every sampler of this source draws from. */
    public RandomBits bits() {
        return bits;
    }

    /** Floating-point-safe Laplace noise on a power-of-two grid. */
    public SecureLaplaceSampler laplace() {
        return laplace;
    }

    /** Floating-point-safe Gaussian noise on a power-of-two grid. */
    public SecureGaussianSampler gaussian() {
        return gaussian;
    }

    /** Fast hardened Gaussian noise for large vectors. */
    public GaussianVectorSampler vectors() {
        return vectors;
    }

    /**
     * True with probability exactly {@code q} (Poisson sampling of records).
     *
     * @throws IllegalArgumentException if {@code q} is NaN or outside [0, 1]
     */
    public boolean bernoulli(double q) {
        return bits.nextBernoulli(q);
    }

    /** False when the bits are seeded: then nothing this source produces is differentially private. */
    public boolean isPrivate() {
        return bits.isSecure();
    }

    /** Generator and samplers in use, for the privacy ledger; stable across runs for the same kind of source. */
    public String samplerDescription() {
        return bits.name() + "; " + SAMPLERS;
    }

    /**
     * Poisson sampling of records {@code 0 .. n-1} at rate exactly {@code q}, from about one byte of this source's bits
     * per record ({@link PoissonSampling}): the joining records, increasing.
     */
    public int[] poissonSample(int n, double q) {
        return PoissonSampling.sample(bits, n, q);
    }

    /**
     * Poisson sampling of records {@code 0 .. n-1} by exact geometric gaps (O(q n) draws), each record joining at rate
     * {@code 1 - exp(-PoissonSampling.gapRate(q))}, at most q ({@link PoissonSampling#sampleByGaps}).
     */
    public int[] poissonSampleByGaps(int n, double q) {
        return PoissonSampling.sampleByGaps(bits, n, q);
    }

    /** An independent source (over {@link RandomBits#split()}) for another thread. */
    public NoiseSource split() {
        return new NoiseSource(bits.split());
    }
}
