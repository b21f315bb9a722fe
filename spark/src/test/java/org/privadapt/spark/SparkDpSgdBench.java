package org.privadapt.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.storage.StorageLevel;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dp.DpSgdConfig;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.dp.SeparateSampling;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Not a test: the time of a whole DP-SGD step (Poisson sampling, the clipped gradient sum, secure noise, the update) on
 * Spark against in process, for several expected batch sizes q n, a linear model for 4 classes over n cached rows of d
 * features. Spark is timed two ways: as it runs ({@link SparkDpSgd#randomness} with secure noise: the batches on their
 * own stream, a window of steps' rows fetched in one job, {@link GatheredBatches}) and with one job per step (one
 * stream, as a seeded run goes). The in-process trainer runs on an n x d matrix of the same size made on the driver.
 * Usage (the spark module's test classpath, or the launcher's):
 * {@code java -cp ... org.privadapt.spark.SparkDpSgdBench [n] [d] [master] [steps] [per-step-job steps]}; prints one
 * line per batch size, milliseconds per step (total time / steps, after a warm-up run). docs/performance.md ("DP-SGD
 * on Spark: the cost of a step") has the figures.
 */
public final class SparkDpSgdBench {
    private SparkDpSgdBench() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int d = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        String master = args.length > 2 ? args[2] : "local[2]";
        int steps = args.length > 3 ? Integer.parseInt(args[3]) : 500;
        int jobSteps = args.length > 4 ? Integer.parseInt(args[4]) : 30;
        SparkSession spark = SparkSession.builder().master(master).appName("privadapt-dpsgd-bench")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        List<Column> cols = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            names.add("f" + j);
            cols.add(functions.randn(1000 + j).as("f" + j));
        }
        cols.add(functions.concat(functions.lit("c"), functions.pmod(functions.col("id"), functions.lit(4)).cast("string")).as("y"));
        Dataset<Row> frame = spark.range(0, n, 1, 4).select(cols.toArray(new Column[0]));
        SparkTable table = SparkData.of(frame, names, "y");
        List<String> classes = List.of("c0", "c1", "c2", "c3");
        long t0 = System.nanoTime();
        SparkDpSgd.Cached cached = SparkDpSgd.cache(table, classes, StorageLevel.MEMORY_ONLY());
        System.out.printf("cache: %d rows x %d in %d partitions, %.1f s%n", cached.rows(), d, cached.offsets().length,
                (System.nanoTime() - t0) / 1e9);
        SplittableRandom r = new SplittableRandom(1);
        double[] flat = new double[n * d];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 4;
            for (int j = 0; j < d; j++) {
                flat[i * d + j] = r.nextGaussian();
            }
        }
        DenseMatrix x = DenseMatrix.fromRowMajor(n, d, flat);
        flat = null;
        Network init = Network.create(d, new int[0], Activation.RELU, classes, 1);
        System.out.println("batch q n\twindow\tspark ms/step (windows)\tspark ms/step (a job per step)\tin process ms/step");
        for (int batch : new int[] {256, 4096, 32768}) {
            double q = Math.min(1.0, (double) batch / n);
            DpSgdConfig c = new DpSgdConfig(1.0, 1.0, q, q * n, steps, 256, "sgd", 0.1, "constant", 0.0, 1L);
            DpSgdTrainer.BatchSums sums = SparkDpSgd.batchSums(cached, 1.0, 256, q);
            DpSgdTrainer.train(init, n, sums, c.withSteps(Math.min(steps, 50)), SparkDpSgd.randomness(NoiseSource.secure())); // warm-up
            long a = System.nanoTime();
            DpSgdTrainer.train(init, n, sums, c, SparkDpSgd.randomness(NoiseSource.secure()));
            double windowed = (System.nanoTime() - a) / 1e6 / steps;
            a = System.nanoTime();
            DpSgdTrainer.train(init, n, sums, c.withSteps(jobSteps), new SessionRandomness(NoiseSource.secure()));
            double perJob = (System.nanoTime() - a) / 1e6 / jobSteps;
            DpSgdTrainer.train(init, x, y, c.withSteps(Math.min(steps, 50)), new SessionRandomness(NoiseSource.secure()));
            a = System.nanoTime();
            DpSgdTrainer.train(init, x, y, c, new SessionRandomness(NoiseSource.secure()));
            double local = (System.nanoTime() - a) / 1e6 / steps;
            System.out.printf("%d\t%d\t%.2f\t%.1f\t%.2f%n", batch, GatheredBatches.window(q, n, d), windowed, perJob, local);
        }
        cached.close();
        spark.stop();
    }
}
