import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * A CSV file with a header (numeric feature columns and one label column) rewritten as one Parquet file in the file's
 * row order, the features as one {@code array<double>} column {@code features} and the label as a string column of the
 * same name: how a data-lake user holds the rows of docs/performance.md's dp-uda-gmm measurement (issue 45 item 2).
 * A single-file program on the Spark jars the build fetched:
 *
 * <pre>
 * java $(cat spark-cli/target/launcher/jvm-args) -cp $(cat spark-cli/target/launcher/classpath) \
 *   docs/results/scripts/CsvToVectorParquet.java mnist.csv y mnist.parquet
 * </pre>
 */
public class CsvToVectorParquet {
    public static void main(String[] args) {
        String csv = args[0];
        String label = args[1];
        String out = args[2];
        SparkSession s = SparkSession.builder().master("local[1]").config("spark.ui.enabled", "false").getOrCreate();
        s.sparkContext().setLogLevel("WARN");
        Dataset<Row> rows = s.read().option("header", "true").csv(csv);
        List<Column> features = new ArrayList<>();
        for (String c : rows.columns()) {
            if (!c.equals(label)) {
                features.add(functions.col(c).cast("double"));
            }
        }
        rows.select(functions.array(features.toArray(new Column[0])).as("features"), functions.col(label))
                .coalesce(1).write().mode("overwrite").parquet(out);
        s.stop();
    }
}
