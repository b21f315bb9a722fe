package org.privadapt.methods.dpot;

import java.util.Arrays;
import org.privadapt.privacy.noise.NoiseSource;
import org.privadapt.privacy.noise.RandomBits;

/**
 * The row selections and orders DPOT draws: the Poisson sample of a source minibatch, the label order of the
 * released rows (uniformly random within a class, which the sensitivity argument relies on), and the target rows
 * that meet a minibatch. {@link Dpot} keeps package-private entry points to these for its tests.
 */
final class DpotOrders {
    private DpotOrders() {
    }

    /** The indices {@code 0..n-1} in order. */
    static int[] allRows(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    /** Poisson sample: each index independently with probability q (exact Bernoulli draws). */
    static int[] poissonSample(int n, double q, NoiseSource noise) {
        int[] out = new int[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (q >= 1 || noise.bernoulli(q)) {
                out[m++] = i;
            }
        }
        return Arrays.copyOf(out, m);
    }

    /** The given indices grouped by label (class 0 first), in a uniformly random order within each class. */
    static int[] labelOrder(int[] idx, int[] y, int q, RandomBits bits) {
        int[] shuffled = idx.clone();
        for (int i = shuffled.length - 1; i > 0; i--) { // Fisher-Yates
            int j = bits.nextInt(i + 1);
            int t = shuffled[i];
            shuffled[i] = shuffled[j];
            shuffled[j] = t;
        }
        int[] out = new int[idx.length];
        int p = 0;
        for (int c = 0; c < q; c++) {
            for (int i : shuffled) {
                if (y[i] == c) {
                    out[p++] = i;
                }
            }
        }
        return out;
    }

    /** {@code m} distinct indices of {@code 0..n-1}, uniformly at random (a partial Fisher-Yates shuffle). */
    static int[] sampleWithoutReplacement(int n, int m, RandomBits bits) {
        int[] a = allRows(n);
        for (int i = 0; i < m; i++) {
            int j = i + bits.nextInt(n - i);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return Arrays.copyOf(a, m);
    }
}
