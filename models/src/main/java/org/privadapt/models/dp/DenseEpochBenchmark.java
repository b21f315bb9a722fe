package org.privadapt.models.dp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Benchmark entry (not a test): one epoch (1/q steps) of DP-SGD's machinery (Poisson sampling, per-example norms,
 * clipping, zero noise: the part that gathers the dense minibatches) on issue 32's dense shape: n 5000 rows of
 * 1024 seeded Gaussian features, a 1024-256-10 ReLU network, expected batch 256. Median of 5 epochs after two
 * warm-ups, and a checksum of the trained parameters (the same in every build that computes the same thing).
 * Only public API, so the same class measures an older build.
 *
 * <p>{@code java -cp cli/target/privadapt.jar org.privadapt.models.dp.DenseEpochBenchmark [n d hidden classes batch]}
 */
public final class DenseEpochBenchmark {
    private DenseEpochBenchmark() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int d = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
        int hidden = args.length > 2 ? Integer.parseInt(args[2]) : 256;
        int classes = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        int batch = args.length > 4 ? Integer.parseInt(args[4]) : 256;
        SplittableRandom rng = new SplittableRandom(1);
        double[] a = new double[n * d];
        for (int k = 0; k < a.length; k++) {
            a[k] = rng.nextGaussian();
        }
        DenseMatrix x = new DenseMatrix(n, d, a);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = rng.nextInt(classes);
        }
        List<String> names = new ArrayList<>();
        for (int c = 0; c < classes; c++) {
            names.add("c" + c);
        }
        Network init = Network.create(d, new int[] {hidden}, Activation.RELU, names, 1);
        double q = (double) batch / n;
        DpSgdConfig cfg = new DpSgdConfig(1.0, 0.0, q, batch, Math.round(1.0 / q), batch, "sgd", 0.05, "constant", 0, 1);
        double[] ms = new double[5];
        double checksum = 0;
        for (int r = -2; r < ms.length; r++) {
            long t0 = System.nanoTime();
            DpSgdTrainer.Result res = DpSgdTrainer.train(init, x, y, cfg, new SessionRandomness(NoiseSource.seeded(7)));
            long t1 = System.nanoTime();
            if (r >= 0) {
                ms[r] = (t1 - t0) / 1e6;
            }
            checksum = 0;
            for (int l = 0; l < res.model().layers(); l++) {
                for (double v : res.model().weights(l).data()) {
                    checksum += v;
                }
            }
        }
        double[] s = ms.clone();
        Arrays.sort(s);
        System.out.printf(Locale.ROOT, "dense DP-SGD machinery epoch n=%d d=%d %d-%d-%d batch %d: %.1f ms (median of 5; min %.1f, "
                + "max %.1f); weight checksum %.17g%n", n, d, d, hidden, classes, batch, s[2], s[0], s[4], checksum);
    }
}
