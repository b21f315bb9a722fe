package org.privadapt.models.dp;

import java.util.ArrayList;
import java.util.List;

/**
 * Test randomness for the one-shot releases (class statistics, output perturbation): seeded Gaussian noise whose
 * every call (length, sigma) and every added vector is recorded, so that a test can replay the noise or check its
 * scale; with {@code forbid}, any draw fails the test (to prove that nothing was drawn). These releases sample no
 * records, so {@link #bernoulli} fails too.
 */
final class RecordingNoise implements NoiseAndSampling {
    final SeededRandomness inner;
    final boolean forbid;
    final List<double[]> calls = new ArrayList<>(); // {length, sigma}
    final List<double[]> added = new ArrayList<>();

    RecordingNoise(long seed, boolean forbid) {
        this.inner = new SeededRandomness(seed);
        this.forbid = forbid;
    }

    RecordingNoise(long seed) {
        this(seed, false);
    }

    @Override
    public boolean bernoulli(double p) {
        throw new AssertionError("a one-shot release samples no records");
    }

    @Override
    public void addGaussian(double[] v, double sigma) {
        if (forbid) {
            throw new AssertionError("noise drawn");
        }
        calls.add(new double[] {v.length, sigma});
        double[] before = v.clone();
        inner.addGaussian(v, sigma);
        double[] a = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            a[i] = v[i] - before[i];
        }
        added.add(a);
    }

    @Override
    public boolean isPrivate() {
        return false;
    }

    @Override
    public String description() {
        return "recording";
    }
}
