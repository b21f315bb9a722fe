package org.privadapt.privacy.accounting.pld;

/**
 * Linear convolution of non-negative real sequences, directly for small inputs and through an iterative radix-2
 * complex FFT otherwise.
 *
 * <p>The FFT is the textbook decimation-in-time Cooley-Tukey transform: a bit-reversal permutation followed by
 * {@code log2 N} butterfly stages. Twiddle factors are taken from a table laid out stage by stage (contiguous reads)
 * and computed with {@link Math#cos}/{@link Math#sin} for every entry (not by recurrence), so each is correct to
 * about one ulp and the transform's round-off grows like {@code O(u log N)} relative to the 2-norm of its input, with
 * {@code u = 2^-53}.
 *
 * <p>The sequences are real, so each spectrum is computed with a complex transform of half the length (even
 * samples as real parts, odd samples as imaginary parts; {@link #realSpectrum}) and the product is transformed back
 * the same way ({@link #realInverse}): a convolution costs three half-length transforms, a square two.
 *
 * <p>Round-off makes some entries of an FFT convolution of non-negative sequences slightly negative (or slightly
 * positive where the exact value is zero); the absolute error of every entry is of order
 * {@code u log2(N) ||a||_2 ||b||_2}. Negative entries are clamped to zero here; callers treat the result as a
 * measure, not as exact arithmetic (see {@link DiscretePld}).
 */
final class Fft {
    /** Below this many multiply-adds the direct O(nm) sum is used: it is exact up to ordinary rounding. */
    static final long DIRECT_LIMIT = 1L << 18;

    /** Per-stage twiddles for the largest transform seen so far (see {@link #stageTwiddles}). */
    private static volatile double[][] stageTwiddles = {new double[1], new double[1]};

    private Fft() {
    }

    /**
     * The linear convolution {@code c[k] = sum_i a[i] b[k - i]} (length {@code a.length + b.length - 1}) of two
     * non-empty sequences of non-negative numbers, with negative round-off clamped to zero.
     */
    static double[] convolve(double[] a, double[] b) {
        if (a.length == 0 || b.length == 0) {
            throw new IllegalArgumentException("cannot convolve an empty sequence");
        }
        int outLength = a.length + b.length - 1;
        if ((long) a.length * b.length <= DIRECT_LIMIT || Math.min(a.length, b.length) <= 32) {
            return direct(a, b, outLength);
        }
        int n = Integer.highestOneBit(outLength);
        if (n < outLength) {
            n <<= 1;
        }
        int half = n / 2;
        double[][] spectrumA = realSpectrum(a, n);
        double[][] spectrumB = b == a ? spectrumA : realSpectrum(b, n);
        double[] cr = spectrumA[0];
        double[] ci = spectrumA[1];
        for (int k = 0; k <= half; k++) {
            double ar = cr[k];
            double ai = ci[k];
            double br = spectrumB[0][k];
            double bi = spectrumB[1][k];
            cr[k] = ar * br - ai * bi;
            ci[k] = ar * bi + ai * br;
        }
        return realInverse(cr, ci, n, outLength);
    }

    /**
     * {@code X_k = sum_j x_j e^{-2 pi i jk / n}} for {@code k = 0..n/2} (the rest follows from
     * {@code X_{n-k} = conj X_k}) of the real sequence x zero-padded to length n (a power of two, at least 2), via one
     * complex transform of length n/2 of {@code z_m = x_{2m} + i x_{2m+1}}: with {@code E}, {@code O} the transforms
     * of the even and odd samples, {@code Z_k = E_k + i O_k}, {@code E_k = (Z_k + conj Z_{n/2-k}) / 2},
     * {@code O_k = (Z_k - conj Z_{n/2-k}) / (2i)} and {@code X_k = E_k + e^{-2 pi i k / n} O_k}.
     */
    static double[][] realSpectrum(double[] x, int n) {
        int half = n / 2;
        double[] zr = new double[half];
        double[] zi = new double[half];
        for (int j = 0; j < x.length; j++) {
            if ((j & 1) == 0) {
                zr[j >> 1] = x[j];
            } else {
                zi[j >> 1] = x[j];
            }
        }
        transform(zr, zi, false);
        double[][] table = stageTwiddles(n);
        double[] xr = new double[half + 1];
        double[] xi = new double[half + 1];
        for (int k = 0; k <= half; k++) {
            int p = k == half ? 0 : k;
            int q = k == 0 ? 0 : half - k;
            double er = 0.5 * (zr[p] + zr[q]);
            double ei = 0.5 * (zi[p] - zi[q]);
            double or = 0.5 * (zi[p] + zi[q]);
            double oi = -0.5 * (zr[p] - zr[q]);
            double wr = k == half ? -1.0 : table[0][half + k];
            double wi = k == half ? 0.0 : -table[1][half + k];
            xr[k] = er + wr * or - wi * oi;
            xi[k] = ei + wr * oi + wi * or;
        }
        return new double[][] {xr, xi};
    }

    /**
     * The first {@code length} samples of the real sequence x of length n whose transform has
     * {@code X_k = (xr[k], xi[k])} for {@code k = 0..n/2} (inverse of {@link #realSpectrum}), with negative values
     * clamped to zero: {@code E_k = (X_k + conj X_{n/2-k}) / 2}, {@code O_k = (X_k - conj X_{n/2-k})
     * e^{2 pi i k / n} / 2}, and the inverse transform of length n/2 of {@code E_k + i O_k} is
     * {@code x_{2m} + i x_{2m+1}}.
     */
    static double[] realInverse(double[] xr, double[] xi, int n, int length) {
        int half = n / 2;
        double[][] table = stageTwiddles(n);
        double[] zr = new double[half];
        double[] zi = new double[half];
        for (int k = 0; k < half; k++) {
            int j = half - k;
            double er = 0.5 * (xr[k] + xr[j]);
            double ei = 0.5 * (xi[k] - xi[j]);
            double dr = 0.5 * (xr[k] - xr[j]);
            double di = 0.5 * (xi[k] + xi[j]);
            double c = table[0][half + k];
            double s = table[1][half + k];
            double or = dr * c - di * s;
            double oi = dr * s + di * c;
            zr[k] = er - oi;
            zi[k] = ei + or;
        }
        transform(zr, zi, true);
        double scale = 1.0 / half;
        double[] x = new double[length];
        for (int j = 0; j < length; j++) {
            double v = ((j & 1) == 0 ? zr[j >> 1] : zi[j >> 1]) * scale;
            x[j] = v > 0 ? v : 0.0;
        }
        return x;
    }

    private static double[] direct(double[] a, double[] b, int outLength) {
        double[] c = new double[outLength];
        double[] small = a.length <= b.length ? a : b;
        double[] large = small == a ? b : a;
        for (int i = 0; i < small.length; i++) {
            double s = small[i];
            if (s == 0) {
                continue;
            }
            for (int j = 0; j < large.length; j++) {
                c[i + j] += s * large[j];
            }
        }
        return c;
    }

    /**
     * In-place complex DFT of {@code (re, im)}, whose length must be a power of two: {@code X_k = sum_j x_j
     * exp(-2 pi i jk / N)}, or with {@code +} in the exponent if {@code inverse} (unscaled; divide by N after).
     */
    static void transform(double[] re, double[] im, boolean inverse) {
        int n = re.length;
        if (im.length != n || Integer.bitCount(n) != 1) {
            throw new IllegalArgumentException("FFT length must be a power of two, got " + n);
        }
        if (n == 1) {
            return;
        }
        // Bit-reversal permutation.
        int shift = Integer.numberOfLeadingZeros(n) + 1;
        for (int i = 0; i < n; i++) {
            int j = Integer.reverse(i) >>> shift;
            if (j > i) {
                double t = re[i];
                re[i] = re[j];
                re[j] = t;
                t = im[i];
                im[i] = im[j];
                im[j] = t;
            }
        }
        double[][] table = stageTwiddles(n);
        double[] cos = table[0];
        double[] sin = table[1];
        double sign = inverse ? 1.0 : -1.0;
        for (int half = 1; half < n; half <<= 1) {
            int len = half << 1;
            for (int start = 0; start < n; start += len) {
                for (int k = 0; k < half; k++) {
                    double wr = cos[half + k];
                    double wi = sign * sin[half + k];
                    int p = start + k;
                    int q = p + half;
                    double xr = re[q] * wr - im[q] * wi;
                    double xi = re[q] * wi + im[q] * wr;
                    re[q] = re[p] - xr;
                    im[q] = im[p] - xi;
                    re[p] += xr;
                    im[p] += xi;
                }
            }
        }
    }

    /**
     * Twiddles laid out stage by stage so that every stage reads them contiguously: entries {@code [m, 2m)} hold
     * {@code cos(pi k / m)}, {@code sin(pi k / m)} for {@code k < m}, the factors of the stage whose butterflies
     * span {@code 2m}. A table of length M serves every transform of length at most M.
     */
    private static double[][] stageTwiddles(int n) {
        double[][] table = stageTwiddles;
        if (table[0].length >= n) {
            return table;
        }
        double[] cos = new double[n];
        double[] sin = new double[n];
        for (int m = 1; m < n; m <<= 1) {
            for (int k = 0; k < m; k++) {
                double angle = Math.PI * k / m;
                cos[m + k] = Math.cos(angle);
                sin[m + k] = Math.sin(angle);
            }
        }
        table = new double[][] {cos, sin};
        stageTwiddles = table;
        return table;
    }

}
