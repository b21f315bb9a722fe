import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * The synthetic rows of docs/performance.md's features-column measurement (issue 45 item 1): n rows of d standard
 * normal values rounded to 4 decimals, repeated {@code copies} times, written as Parquet with one {@code array<double>}
 * column {@code features} (8 files per copy) and as one CSV file with a header {@code f0,...} (for {@code --engine
 * stream}); with a sixth argument K, a label column {@code y} of K classes {@code c0, c1, ...} (uniform, the first
 * feature shifted by the class index, so that the classes differ). A single-file program on the Spark jars the build
 * fetched:
 *
 * <pre>
 * ./mvnw -q -B -ntp -DskipTests -pl spark-cli -am package
 * java $(cat spark-cli/target/launcher/jvm-args) -cp $(cat spark-cli/target/launcher/classpath) \
 *   docs/results/scripts/VectorRows.java 300000 100 32 /tmp/vec/rows.parquet /tmp/vec/rows.csv
 * </pre>
 */
public class VectorRows {
    public static void main(String[] args) throws Exception {
        long n = Long.parseLong(args[0]);
        int d = Integer.parseInt(args[1]);
        int copies = Integer.parseInt(args[2]);
        String parquet = args[3];
        java.nio.file.Path csv = java.nio.file.Path.of(args[4]);
        SparkSession s = SparkSession.builder().master("local[2]").config("spark.ui.enabled", "false").getOrCreate();
        s.sparkContext().setLogLevel("WARN");
        Column[] values = new Column[d];
        for (int j = 0; j < d; j++) {
            values[j] = functions.round(functions.randn(j + 1), 4);
        }
        String once = parquet + ".once";
        int k = args.length > 5 ? Integer.parseInt(args[5]) : 0;
        Dataset<Row> made = s.range(n).select(functions.array(values).as("features"));
        if (k > 0) {
            Column c = functions.floor(functions.rand(0).multiply(k)).cast("int");
            values[0] = values[0].plus(c);
            made = s.range(n).select(functions.array(values).as("features"), functions.concat(functions.lit("c"), c.cast("string")).as("y"));
        }
        made.repartition(8).write().mode("overwrite").parquet(once);
        Dataset<Row> rows = s.read().parquet(once);
        Dataset<Row> all = rows;
        for (int c = 1; c < copies; c++) {
            all = all.union(rows);
        }
        all.write().mode("overwrite").parquet(parquet);
        Column[] named = new Column[d];
        for (int j = 0; j < d; j++) {
            named[j] = functions.col("features").getItem(j).as("f" + j);
        }
        String csvDir = csv + ".parts";
        Column[] csvColumns = java.util.Arrays.copyOf(named, d + (k > 0 ? 1 : 0));
        if (k > 0) {
            csvColumns[d] = functions.col("y");
        }
        rows.select(csvColumns).coalesce(1).write().mode("overwrite").option("header", "true").csv(csvDir);
        java.nio.file.Path part;
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of(csvDir))) {
            part = files.filter(p -> p.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
        }
        java.util.List<String> lines = java.nio.file.Files.readAllLines(part);
        try (var out = java.nio.file.Files.newBufferedWriter(csv)) {
            out.write(lines.get(0));
            out.newLine();
            for (int c = 0; c < copies; c++) {
                for (int i = 1; i < lines.size(); i++) {
                    out.write(lines.get(i));
                    out.newLine();
                }
            }
        }
        s.stop();
    }
}
