import java.util.Locale;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.privadapt.sparkml.PrimaSourceTrainer;
import org.privadapt.sparkml.PrimaTargetRelease;

/**
 * The Spark ML stages' throughput (issue 45's goal, "through a Pipeline"): a {@code Pipeline} of one privadapt stage
 * fitted on a Parquet file with an {@code array<double>} column {@code features} (docs/results/scripts/VectorRows.java),
 * on {@code local[2]}, timed from {@code fit} to its return (the session already started, as a Spark user's job runs
 * in a session). {@code target PARQUET}: PRIMA's target release; {@code ncm PARQUET RELEASE c0,c1,...}: the source's DP
 * model (learner ncm) on that release, labels in column {@code y}. Both with epsilon 2, delta 1e-7, secure noise, no
 * ledger. Run on the spark-ml module's test classpath:
 *
 * <pre>
 * ./mvnw -q -B -DskipTests -pl spark-ml -am install
 * ./mvnw -q -B dependency:build-classpath -pl spark-ml -Dmdep.outputFile=cp.txt -Dmdep.includeScope=test
 * java $(cat spark-cli/target/launcher/jvm-args) -cp spark-ml/target/privadapt-spark-ml-0.1.0-SNAPSHOT.jar:$(cat cp.txt) \
 *   docs/results/scripts/PipelineThroughput.java target /tmp/vec/rows.parquet
 * </pre>
 */
public class PipelineThroughput {
    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().master("local[2]").config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        Dataset<Row> rows = spark.read().parquet(args[1]);
        PipelineStage stage = args[0].equals("target")
                ? new PrimaTargetRelease().setEpsilon(2.0).setDelta(1e-7)
                : new PrimaSourceTrainer().setReleasePath(args[2]).setClasses(args[3].split(",")).setLabelCol("y").setLearner("ncm")
                        .setEpsilon(2.0).setDelta(1e-7);
        long t0 = System.nanoTime();
        new Pipeline().setStages(new PipelineStage[] {stage}).fit(rows);
        double s = (System.nanoTime() - t0) * 1e-9;
        System.out.printf(Locale.ROOT, "%s on %s: fit in %.1f s%n", args[0], args[1], s);
        spark.stop();
    }
}
