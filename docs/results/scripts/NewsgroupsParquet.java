import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructType;
import org.privadapt.data.Dataset;
import org.privadapt.data.io.MatLoader;
import org.privadapt.math.CsrMatrix;

/**
 * 20 Newsgroups comp vs rec (the suite 20newsgroups-da's first task, comp-vs-rec-12 -> comp-vs-rec-34: source =
 * newsgroups X1, X2 of comp.mat and rec.mat, target = X3, X4; label 0 comp, 1 rec; 25,804 terms, sparse) written for a
 * data-lake user, each row {@code copies} times: a Parquet file per domain with a Spark ML sparse vector column
 * {@code features} (as stored: struct type/size/indices/values, with the vector's metadata) and a string label
 * {@code y}, and the same rows as SVMlight files for the in-process engine. The measurements of docs/spark.md's "Sparse
 * vectors stay sparse" (issue 45 item 1). A single-file program on the Spark jars the build fetched:
 *
 * <pre>
 * ./mvnw -q -B -ntp -DskipTests -pl spark-cli -am package
 * java $(cat spark-cli/target/launcher/jvm-args) -cp $(cat spark-cli/target/launcher/classpath) \
 *   docs/results/scripts/NewsgroupsParquet.java ../shared/data/20newsgroups-da 25 /tmp/ng
 * </pre>
 */
public class NewsgroupsParquet {
    static final int D = 25804;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int copies = Integer.parseInt(args[1]);
        Path out = Files.createDirectories(Path.of(args[2]));
        Dataset[][] groups = new Dataset[2][];
        String[] categories = {"comp", "rec"};
        for (int c = 0; c < 2; c++) {
            List<MatLoader.Request> req = new ArrayList<>();
            for (int g = 1; g <= 4; g++) {
                req.add(new MatLoader.Request(categories[c] + ".X" + g,
                        new MatLoader.Options("X" + g, null).withOrientation(MatLoader.Orientation.COLUMNS)));
            }
            groups[c] = MatLoader.loadAll(dir.resolve(categories[c] + ".mat"), req).toArray(new Dataset[0]);
        }
        SparkSession s = SparkSession.builder().master("local[2]").config("spark.ui.enabled", "false").getOrCreate();
        s.sparkContext().setLogLevel("ERROR");
        StructType vector = DataTypes.createStructType(List.of(
                DataTypes.createStructField("type", DataTypes.ByteType, false),
                DataTypes.createStructField("size", DataTypes.IntegerType, true),
                DataTypes.createStructField("indices", DataTypes.createArrayType(DataTypes.IntegerType, false), true),
                DataTypes.createStructField("values", DataTypes.createArrayType(DataTypes.DoubleType, false), true)));
        Metadata meta = new MetadataBuilder().putMetadata("ml_attr", new MetadataBuilder().putLong("num_attrs", D).build()).build();
        StructType schema = DataTypes.createStructType(List.of(DataTypes.createStructField("features", vector, true, meta),
                DataTypes.createStructField("y", DataTypes.StringType, true)));
        String suffix = copies == 1 ? "" : Integer.toString(copies);
        for (String[] domain : new String[][] {{"src", "0", "1"}, {"tgt", "2", "3"}}) {
            List<Row> rows = new ArrayList<>();
            try (BufferedWriter svm = Files.newBufferedWriter(out.resolve(domain[0] + suffix + ".svm"))) {
                for (int copy = 0; copy < copies; copy++) {
                    for (int c = 0; c < 2; c++) {
                        for (int h = 1; h <= 2; h++) {
                            CsrMatrix x = (CsrMatrix) groups[c][Integer.parseInt(domain[h])].features();
                            for (int i = 0; i < x.rows(); i++) {
                                int k = x.rowEnd(i) - x.rowStart(i);
                                int[] idx = new int[k];
                                double[] val = new double[k];
                                StringBuilder line = new StringBuilder(Integer.toString(c));
                                for (int e = 0; e < k; e++) {
                                    idx[e] = x.colIndexAt(x.rowStart(i) + e);
                                    val[e] = x.valueAt(x.rowStart(i) + e);
                                    line.append(' ').append(idx[e] + 1).append(':').append(val[e]);
                                }
                                svm.write(line.append('\n').toString());
                                rows.add(RowFactory.create(RowFactory.create((byte) 0, D, scala.jdk.javaapi.CollectionConverters
                                        .asScala(java.util.Arrays.stream(idx).boxed().toList()).toSeq(),
                                        scala.collection.immutable.ArraySeq.unsafeWrapArray(val)), Integer.toString(c)));
                            }
                        }
                    }
                }
            }
            s.createDataFrame(rows, schema).coalesce(2).write().mode("overwrite").parquet(out.resolve(domain[0] + suffix + ".parquet").toString());
            System.out.println(domain[0] + ": " + rows.size() + " rows");
        }
        s.stop();
    }
}
