package org.privadapt.math;

import java.util.SplittableRandom;

/**
 * Run in a child JVM by {@link NativeBlasTest}: prints the backend chosen under the JVM's settings and the
 * largest difference between its product and the pure-Java one on a fixed random 64 x 64 product.
 */
public final class NativeBlasProbe {
    private NativeBlasProbe() {
    }

    public static void main(String[] args) {
        LinAlgBackend b = LinAlg.backend();
        SplittableRandom rng = new SplittableRandom(7);
        int n = 64;
        double[] a = new double[n * n];
        double[] c = new double[n * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = rng.nextDouble(-1, 1);
        }
        double[] viaBackend = new double[n * n];
        b.gemm(false, true, n, n, n, 1.0, a, n, a, n, 0.0, viaBackend, n);
        NetlibBackend.pureJava().gemm(false, true, n, n, n, 1.0, a, n, a, n, 0.0, c, n);
        double diff = 0;
        for (int i = 0; i < c.length; i++) {
            diff = Math.max(diff, Math.abs(c[i] - viaBackend[i]));
        }
        System.out.println("source=" + NativeBlas.prepare().source());
        System.out.println("native=" + b.isNative());
        System.out.println("maxdiff=" + diff);
        System.out.println("description=" + b.description());
    }
}
