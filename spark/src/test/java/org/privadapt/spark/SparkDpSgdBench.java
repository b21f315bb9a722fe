package org.privadapt.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.storage.StorageLevel;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.core.PrivateTraining;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;

/**
 * Not a test: times one DP-SGD step's exact query (the clipped per-example gradient sum over a Poisson batch) on Spark
 * ({@link SparkDpSgd}, the rows cached as blocks) against the in-process {@link DpSgdTrainer#clippedSum} on the same
 * rows, for several batch sizes. Usage (the spark module's test classpath):
 * {@code java -cp ... org.privadapt.spark.SparkDpSgdBench [n] [d] [master] [steps]}; prints one line per batch size:
 * milliseconds per step, median of the steps, both engines. docs/performance.md ("DP-SGD on Spark: the cost of a step")
 * has the figures.
 */
public final class SparkDpSgdBench {
    private SparkDpSgdBench() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int d = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        String master = args.length > 2 ? args[2] : "local[2]";
        int steps = args.length > 3 ? Integer.parseInt(args[3]) : 20;
        SparkSession spark = SparkSession.builder().master(master).appName("privadapt-dpsgd-bench")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
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
        // the same rows in process, in the table's order
        List<Row> rows = frame.collectAsList();
        double[] flat = new double[n * d];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            Row r = rows.get(i);
            for (int j = 0; j < d; j++) {
                flat[i * d + j] = r.getDouble(j);
            }
            y[i] = classes.indexOf(r.getString(d));
        }
        rows = null;
        DenseMatrix x = DenseMatrix.fromRowMajor(n, d, flat);
        MethodConfig c = new MethodConfig("lr", 4, 1, Map.of("learner", "dp-sgd", "epochs", "1", "batch", "256", "clip", "1.0"));
        PrivateLearners.Plan p = PrivateLearners.plan(c, n, d, 4, 2.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1);
        Network net = PrivateTraining.initial(p.gradient(), d, classes);
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(1);
        DpSgdTrainer.BatchSums onSpark = SparkDpSgd.batchSums(cached, 1.0, 256);
        System.out.println("batch\tspark ms/step\tin-process ms/step\tratio");
        for (int batch : new int[] {256, 4096, 32768}) {
            double qr = Math.min(1.0, (double) batch / n);
            double[] ts = new double[steps];
            double[] tl = new double[steps];
            for (int s = 0; s < steps; s++) {
                int[] b = java.util.stream.IntStream.range(0, n).filter(i -> rnd.nextDouble() < qr).toArray();
                long a = System.nanoTime();
                onSpark.sum(net, b, s);
                ts[s] = (System.nanoTime() - a) / 1e6;
                a = System.nanoTime();
                DpSgdTrainer.clippedSum(net, x, y, b, 1.0, 256, s);
                tl[s] = (System.nanoTime() - a) / 1e6;
            }
            java.util.Arrays.sort(ts);
            java.util.Arrays.sort(tl);
            System.out.printf("%d\t%.1f\t%.2f\t%.0f%n", batch, ts[steps / 2], tl[steps / 2], ts[steps / 2] / tl[steps / 2]);
        }
        cached.close();
        spark.stop();
    }
}
