package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.OutputOptions;
import org.privadapt.cli.report.Json;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.registry.BenchmarkRegistry;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.dp.DpSgdConfig;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.models.nn.SgdTrainer;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * One epoch of DP-SGD on issue 32's two shapes, with and without privacy, and the parts of the difference: the
 * clipping machinery (DP-SGD with zero noise), the Gaussian noise itself (hardened 4-draw sampler) with secure and
 * with seeded bits. Sparse: the shallow DPDA network (5000-50-2, ReLU) on the 2000 Amazon "books" training reviews
 * (synthetic sparse rows when the data is absent), expected batches 32 (DPDA's) and 256. Dense: 5000 seeded Gaussian
 * rows of 1024 features, 1024-256-10, batch 256. Each figure is one epoch of a {@value #EPOCHS}-epoch training
 * (so a dense matrix is gathered from the row-major copy a training makes once), the median of 5 trainings after at
 * least three warm-up trainings and 1.5 s. The same shapes in
 * PyTorch: {@code docs/peers/dpsgd_peer.py}.
 */
final class DpSgdBench {
    private final BenchmarkRegistry registry;
    private final PrintWriter out;
    private final OutputOptions output;

    DpSgdBench(BenchmarkRegistry registry, PrintWriter out, OutputOptions output) {
        this.registry = registry;
        this.out = out;
        this.output = output;
    }

    record Cell(String shape, int batch, String variant, double medianMs, double ratioToNonPrivate,
            double ratioToZeroNoise) {
    }

    /** Non-private SGD, DP-SGD with zero noise, with seeded noise and with secure noise: one epoch each. */
    private static List<Cell> epochs(String shape, Network init, FeatureMatrix x, int[] y, int batch) {
        int n = x.rows();
        double q = (double) batch / n;
        long steps = EPOCHS * Math.round(1.0 / q);
        List<Cell> cells = new ArrayList<>();
        double base = median(() -> SgdTrainer.train(init, x, y, EPOCHS, batch, "sgd", 0.05, "constant", 0, 1));
        cells.add(new Cell(shape, batch, "non-private SGD (shuffled batches, mean gradient)", base, 1.0, Double.NaN));
        DpSgdConfig noNoise = new DpSgdConfig(1.0, 0.0, q, batch, steps, 256, "sgd", 0.05, "constant", 0, 1);
        DpSgdConfig noisy = noNoise.withNoiseMultiplier(1.0);
        // the default (secure) is timed against the zero-noise training in alternating pairs, and its ratio is the
        // median of the pairs' ratios: the machine's speed drifts by 10-40 % within a minute here, which made a
        // ratio of two medians timed a minute apart move by as much. It is also timed before the seeded variant: a
        // private run trains with secure noise alone, and a variant timed after others in the same JVM runs code
        // compiled for their profile (the secure sparse epoch took 1.2-1.3x as long after seeded trainings)
        NoiseAndSampling secureBits = new SessionRandomness(NoiseSource.secure()); // one source, as a training run has
        double[] paired = pairedMedians(() -> DpSgdTrainer.train(init, x, y, noNoise, seeded(1)),
                () -> DpSgdTrainer.train(init, x, y, noisy, secureBits));
        double clipOnly = paired[0];
        cells.add(new Cell(shape, batch, "DP-SGD machinery only (Poisson sampling, per-example clipping, zero noise)",
                clipOnly, clipOnly / base, 1.0));
        double seededNoise = median(() -> DpSgdTrainer.train(init, x, y, noisy, seeded(2)));
        cells.add(new Cell(shape, batch, "DP-SGD, hardened Gaussian noise from seeded bits (NOT private)", seededNoise,
                seededNoise / base, seededNoise / clipOnly));
        cells.add(new Cell(shape, batch, "DP-SGD, hardened Gaussian noise from AES-256-CTR (the default)", paired[1],
                paired[1] / base, paired[2]));
        return cells;
    }

    int run() throws DataException {
        FeatureMatrix x;
        int[] y;
        String dataName;
        if (registry.present(registry.suite("amazon-reviews"))) {
            Dataset books = registry.load("amazon-reviews", "books", "train");
            x = books.features();
            y = books.classLabels().codes();
            dataName = "amazon-reviews/books:train (2000 x 5000, sparse)";
        } else {
            x = syntheticSparse();
            y = new int[2000];
            for (int i = 0; i < y.length; i++) {
                y[i] = i % 2;
            }
            dataName = "synthetic sparse 2000 x 5000 (shared data absent)";
        }
        int n = x.rows();
        Network init = Network.create(x.cols(), new int[] {50}, Activation.RELU, List.of("negative", "positive"), 1);
        List<Cell> cells = new ArrayList<>();
        String sparseShape = "sparse " + n + " x " + x.cols() + ", " + x.cols() + "-50-2";
        for (int batch : new int[] {32, 256}) {
            cells.addAll(epochs(sparseShape, init, x, y, batch));
        }
        // issue 32's dense shape: 5000 seeded Gaussian rows of 1024 features, 1024-256-10, batch 256
        SplittableRandom rng = new SplittableRandom(1);
        int dn = 5000;
        int dd = 1024;
        double[] a = new double[dn * dd];
        for (int k = 0; k < a.length; k++) {
            a[k] = rng.nextGaussian();
        }
        int[] dy = new int[dn];
        List<String> tenClasses = new ArrayList<>();
        for (int c = 0; c < 10; c++) {
            tenClasses.add("c" + c);
        }
        for (int i = 0; i < dn; i++) {
            dy[i] = rng.nextInt(10);
        }
        Network dense = Network.create(dd, new int[] {256}, Activation.RELU, tenClasses, 1);
        cells.addAll(epochs("dense 5000 x 1024 (seeded Gaussian), 1024-256-10", dense, new DenseMatrix(dn, dd, a), dy, 256));
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "One epoch (1/q steps) of DP-SGD, timed over a training of " + EPOCHS + " epochs (as a training uses its data: "
                + "a dense matrix is gathered from a row-major copy made once); sparse shape: "
                + "%d-50-2 ReLU network (%d parameters) on %s; dense shape: %d parameters; median of 5 epochs after at least "
                + "three warm-ups and 1.5 s; %d cores. 'x zero noise' divides by the same epoch with the noise left out; for secure noise it is the median ratio of 7 alternating pairs of the two trainings.%n%n",
                x.cols(), init.parameterCount(), dataName, dense.parameterCount(), Runtime.getRuntime().availableProcessors()));
        md.append("| shape | expected batch | variant | epoch (ms) | x non-private | x zero noise |\n|---|---:|---|---:|---:|---:|\n");
        for (Cell c : cells) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %.1f | %.2f | %s |%n", c.shape(), c.batch(), c.variant(),
                    c.medianMs(), c.ratioToNonPrivate(), Double.isNaN(c.ratioToZeroNoise()) ? ""
                            : String.format(Locale.ROOT, "%.2f", c.ratioToZeroNoise())));
        }
        // paper 001's methods on the same network (5000-50-2, sigmoid) with books as source and, as target, the same
        // rows (only the sizes matter for the cost): one epoch over the target, expected batch 32
        List<Cell> adv = new ArrayList<>();
        md.append(String.format(Locale.ROOT, "%nOne target epoch (N_t / 32 iterations) of paper 001's methods on the same data "
                + "(5000-50-2 sigmoid extractor and heads; each DP iteration releases the ~250k parameters of the domain head "
                + "and the extractor with noise):%n%n| method | epoch (ms) | x DANN |%n|---|---:|---:|%n"));
        org.privadapt.models.dann.AdversarialNetwork anet = org.privadapt.models.dann.AdversarialNetwork.create(x.cols(),
                new int[] {50}, Activation.SIGMOID, List.of("negative", "positive"), new int[0], Activation.RELU, false, 1);
        long iters = EPOCHS * (long) Math.ceil(n / 32.0); // timed over EPOCHS target epochs, reported per epoch
        double dann = 0;
        for (Object[] v : new Object[][] {
            {org.privadapt.models.dann.AdversarialTrainer.Mode.NN, "NN (label step only)", "seeded"},
            {org.privadapt.models.dann.AdversarialTrainer.Mode.DANN, "DANN (three steps, no clipping or noise)", "seeded"},
            {org.privadapt.models.dann.AdversarialTrainer.Mode.DPDA, "DPDA machinery only (joint clipping, zero noise)", "zero"},
            {org.privadapt.models.dann.AdversarialTrainer.Mode.DPDA, "DPDA, hardened noise from AES-256-CTR (the default)", "secure"},
            {org.privadapt.models.dann.AdversarialTrainer.Mode.GDPDA, "G-DPDA, hardened noise from AES-256-CTR", "secure"}}) {
            var mode = (org.privadapt.models.dann.AdversarialTrainer.Mode) v[0];
            var cfg = new org.privadapt.models.dann.AdversarialTrainer.Config(mode, iters, 32, 0.05, 1e-3, 4, 8, true);
            FeatureMatrix fx = x;
            int[] fy = y;
            double ms = median(() -> org.privadapt.models.dann.AdversarialTrainer.train(anet, fx, fy, fx, cfg,
                    randomness((String) v[2], 3), randomness((String) v[2], 4)));
            if (mode == org.privadapt.models.dann.AdversarialTrainer.Mode.DANN) {
                dann = ms;
            }
            adv.add(new Cell("sparse, paper 001", 32, (String) v[1], ms, dann > 0 ? ms / dann : Double.NaN, Double.NaN));
            md.append(String.format(Locale.ROOT, "| %s | %.1f | %s |%n", v[1], ms, dann > 0 ? String.format(Locale.ROOT, "%.2f", ms / dann) : ""));
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("command", "bench dpsgd");
        report.put("adversarial", adv);
        report.put("data", dataName);
        report.put("parameters", init.parameterCount());
        report.put("cells", cells);
        output.write(report, md.toString(), null, null);
        if (output.json) {
            out.println(Json.write(report));
        } else {
            out.print(md);
        }
        return ExitCodes.OK;
    }

    /** seeded, secure, or seeded sampling with no noise at all (the machinery's cost alone). */
    private static NoiseAndSampling randomness(String kind, long seed) {
        if (kind.equals("secure")) {
            return new SessionRandomness(NoiseSource.secure());
        }
        NoiseAndSampling s = seeded(seed);
        if (kind.equals("seeded")) {
            return s;
        }
        return new NoiseAndSampling() {
            public boolean bernoulli(double p) {
                return s.bernoulli(p);
            }

            public void addGaussian(double[] v, double sigma) {
            }

            public boolean isPrivate() {
                return false;
            }

            public String description() {
                return "no noise";
            }
        };
    }

    private static NoiseAndSampling seeded(long seed) {
        return new SessionRandomness(NoiseSource.seeded(seed));
    }

    /** Epochs per timed training; the tables report one epoch (the time divided by this). */
    static final int EPOCHS = 3;

    /**
     * Two trainings timed in alternating pairs after both are warmed up (as {@link #median}): the median epoch of
     * each, in ms, and the median of the pairs' ratios b / a.
     */
    private static double[] pairedMedians(Runnable a, Runnable b) {
        long warmupStart = System.nanoTime();
        for (int i = 0; i < 3 || System.nanoTime() - warmupStart < 3_000_000_000L; i++) {
            a.run();
            b.run();
        }
        int pairs = 7;
        double[] ma = new double[pairs];
        double[] mb = new double[pairs];
        double[] ratio = new double[pairs];
        for (int i = 0; i < pairs; i++) {
            long t0 = System.nanoTime();
            a.run();
            long t1 = System.nanoTime();
            b.run();
            long t2 = System.nanoTime();
            ma[i] = (t1 - t0) / 1e6 / EPOCHS;
            mb[i] = (t2 - t1) / 1e6 / EPOCHS;
            ratio[i] = mb[i] / ma[i];
        }
        Arrays.sort(ma);
        Arrays.sort(mb);
        Arrays.sort(ratio);
        return new double[] {ma[pairs / 2], mb[pairs / 2], ratio[pairs / 2]};
    }

    /** The median time of one epoch, in ms: a training of {@value #EPOCHS} epochs, timed and divided. */
    private static double median(Runnable epoch) {
        // warm-ups (at least three, and at least 1.5 s): a variant's own code paths (clipping, noise, the cipher) must
        // be compiled before it is timed; the first cell of the table otherwise carried the whole JIT's warm-up
        long warmupStart = System.nanoTime();
        for (int i = 0; i < 3 || System.nanoTime() - warmupStart < 1_500_000_000L; i++) {
            epoch.run();
        }
        double[] ms = new double[5];
        for (int i = 0; i < ms.length; i++) {
            long t0 = System.nanoTime();
            epoch.run();
            ms[i] = (System.nanoTime() - t0) / 1e6 / EPOCHS;
        }
        Arrays.sort(ms);
        return ms[2];
    }

    private static FeatureMatrix syntheticSparse() {
        SplittableRandom r = new SplittableRandom(1);
        int n = 2000;
        int d = 5000;
        int[] start = new int[n + 1];
        List<int[]> rows = new ArrayList<>();
        int nnz = 0;
        for (int i = 0; i < n; i++) {
            int[] cols = r.ints(150, 0, d).distinct().sorted().toArray();
            rows.add(cols);
            nnz += cols.length;
            start[i + 1] = nnz;
        }
        int[] ci = new int[nnz];
        double[] v = new double[nnz];
        for (int i = 0; i < n; i++) {
            System.arraycopy(rows.get(i), 0, ci, start[i], rows.get(i).length);
        }
        Arrays.fill(v, 1.0);
        return new CsrMatrix(n, d, start, ci, v);
    }
}
