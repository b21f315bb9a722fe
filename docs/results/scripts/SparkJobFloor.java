import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The time of an empty Spark job on a cached RDD (the floor under any one-job-per-step DP-SGD on Spark: issue 45 item
 * 2, docs/performance.md "DP-SGD on Spark: the cost of a step"). Compiled, not run as a single-file source (Spark's
 * executors cannot load the lambdas of a source-launched class):
 *
 * <pre>
 * CP=$(cat spark-cli/target/launcher/classpath)
 * javac -cp "$CP" -d /tmp/floor docs/results/scripts/SparkJobFloor.java
 * java $(cat spark-cli/target/launcher/jvm-args) -cp "/tmp/floor:$CP" SparkJobFloor 2
 * </pre>
 */
public class SparkJobFloor {
    public static void main(String[] args) {
        int partitions = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        SparkSession s = SparkSession.builder().master("local[2]").config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
        s.sparkContext().setLogLevel("WARN");
        JavaSparkContext sc = new JavaSparkContext(s.sparkContext());
        List<Integer> xs = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            xs.add(i);
        }
        JavaRDD<Integer> rows = sc.parallelize(xs, partitions).cache();
        rows.count();
        for (int rep = 0; rep < 3; rep++) {
            long t = System.nanoTime();
            int jobs = 50;
            for (int i = 0; i < jobs; i++) {
                final int step = i;
                rows.mapPartitions(it -> {
                    int c = 0;
                    while (it.hasNext()) {
                        it.next();
                        c++;
                    }
                    return List.of(c + step).iterator();
                }).collect();
            }
            System.out.printf("%d partitions: %.1f ms per job%n", partitions, (System.nanoTime() - t) / 1e6 / jobs);
        }
        s.stop();
    }
}
