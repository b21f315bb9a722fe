package org.privadapt.privacy.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The FFT and the convolution built on it, against the definitions. */
class FftTest {

    @Test
    void transformMatchesTheDefinitionOfTheDft() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int n : new int[] {1, 2, 4, 8, 64, 256}) {
            double[] re = new double[n];
            double[] im = new double[n];
            for (int j = 0; j < n; j++) {
                re[j] = rnd.nextDouble() - 0.5;
                im[j] = rnd.nextDouble() - 0.5;
            }
            double[] fr = re.clone();
            double[] fi = im.clone();
            Fft.transform(fr, fi, false);
            for (int k = 0; k < n; k++) {
                double sr = 0;
                double si = 0;
                for (int j = 0; j < n; j++) {
                    double angle = -2 * Math.PI * ((long) j * k % n) / n;
                    sr += re[j] * Math.cos(angle) - im[j] * Math.sin(angle);
                    si += re[j] * Math.sin(angle) + im[j] * Math.cos(angle);
                }
                assertThat(fr[k]).as("n=%d k=%d", n, k).isCloseTo(sr, within(1e-12 * n));
                assertThat(fi[k]).as("n=%d k=%d", n, k).isCloseTo(si, within(1e-12 * n));
            }
            // inverse (unscaled) then divide by n returns the input
            Fft.transform(fr, fi, true);
            for (int j = 0; j < n; j++) {
                assertThat(fr[j] / n).isCloseTo(re[j], within(1e-14 * n));
                assertThat(fi[j] / n).isCloseTo(im[j], within(1e-14 * n));
            }
        }
    }

    @Test
    void realSpectrumAndItsInverseAgreeWithTheComplexTransform() {
        SplittableRandom rnd = new SplittableRandom(11);
        int n = 1 << 10;
        double[] x = new double[700];
        for (int j = 0; j < x.length; j++) {
            x[j] = rnd.nextDouble();
        }
        double[] re = new double[n];
        double[] im = new double[n];
        System.arraycopy(x, 0, re, 0, x.length);
        Fft.transform(re, im, false);
        double[][] half = Fft.realSpectrum(x, n);
        for (int k = 0; k <= n / 2; k++) {
            assertThat(half[0][k]).as("re k=%d", k).isCloseTo(re[k], within(1e-10));
            assertThat(half[1][k]).as("im k=%d", k).isCloseTo(im[k], within(1e-10));
        }
        double[] back = Fft.realInverse(half[0], half[1], n, n);
        for (int j = 0; j < n; j++) {
            assertThat(back[j]).isCloseTo(j < x.length ? x[j] : 0.0, within(1e-13));
        }
    }

    /** FFT convolution of probability vectors equals the direct sum up to round-off of ~1e-16 of the peak. */
    @Test
    void fftConvolutionMatchesDirectSum() {
        SplittableRandom rnd = new SplittableRandom(3);
        int[][] sizes = {{3000, 5000}, {4097, 4097}, {1000, 20000}};
        for (int[] size : sizes) {
            double[] a = probabilities(rnd, size[0]);
            double[] b = probabilities(rnd, size[1]);
            double[] fft = Fft.convolve(a, b);
            double[] direct = new double[a.length + b.length - 1];
            for (int i = 0; i < a.length; i++) {
                for (int j = 0; j < b.length; j++) {
                    direct[i + j] += a[i] * b[j];
                }
            }
            assertThat(fft).hasSameSizeAs(direct);
            double peak = 0;
            for (double v : direct) {
                peak = Math.max(peak, v);
            }
            double worst = 0;
            double smallest = Double.POSITIVE_INFINITY;
            for (int k = 0; k < direct.length; k++) {
                worst = Math.max(worst, Math.abs(fft[k] - direct[k]));
                smallest = Math.min(smallest, fft[k]);
            }
            assertThat(smallest).isGreaterThanOrEqualTo(0.0);
            assertThat(worst).as("%d x %d", size[0], size[1]).isLessThanOrEqualTo(1e-13 * peak);
        }
        // squaring goes through the same path with one spectrum
        double[] a = probabilities(rnd, 5000);
        double[] sq = Fft.convolve(a, a);
        double total = 0;
        for (double v : sq) {
            total += v;
        }
        assertThat(total).isCloseTo(1.0, within(1e-12));
    }

    private static double[] probabilities(SplittableRandom rnd, int n) {
        double[] p = new double[n];
        double s = 0;
        for (int i = 0; i < n; i++) {
            p[i] = rnd.nextDouble() * Math.exp(-Math.abs(i - n / 2.0) / (n / 8.0));
            s += p[i];
        }
        for (int i = 0; i < n; i++) {
            p[i] /= s;
        }
        return p;
    }
}
