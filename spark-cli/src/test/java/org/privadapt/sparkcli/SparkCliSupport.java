package org.privadapt.sparkcli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.spark.sql.SparkSession;
import org.privadapt.cli.Main;

/**
 * The test JVM's one local[2] SparkSession (the engine finds it active and uses it: a session it made itself would be
 * stopped after each command), small generated data written as CSV, and the comparison of two artifacts or ledgers
 * written by the CLI.
 */
final class SparkCliSupport {
    /** What differs between two runs by design: the time of writing, and the checksums and hashes that cover it. */
    static final Set<String> VOLATILE = Set.of("created", "time", "checksum", "hash");
    static final double TOLERANCE = 1e-9;

    private SparkCliSupport() {
    }

    private static SparkSession session;

    /**
     * The session every Spark test class of this JVM shares: made on first use (starting one costs seconds), stopped when
     * the JVM exits. No web UI, two shuffle partitions (the data are a few hundred rows); Spark's own logging is set to
     * errors only by src/test/resources/log4j2.properties.
     */
    static synchronized SparkSession spark() {
        if (session == null) {
            session = SparkSession.builder().master("local[2]").appName("privadapt-spark-cli-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "2")
                    // interpreted expressions: on a few hundred rows compiling each query's generated code (Janino) costs
                    // more CPU than running it (about a fifth of these tests' CPU); the results are the same
                    .config("spark.sql.codegen.wholeStage", "false")
                    .config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .getOrCreate();
            SparkSession s = session;
            Runtime.getRuntime().addShutdownHook(new Thread(s::stop));
        }
        return session;
    }

    record Result(int code, String out, String err) {
    }

    static Result run(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args.toArray(new String[0]), new PrintWriter(out), new PrintWriter(err));
        return new Result(code, out.toString(), err.toString());
    }

    static List<String> featureNames(int d) {
        List<String> f = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            f.add("f" + j);
        }
        return f;
    }

    /**
     * n rows of d features (three classes with different means, rows from 0.1 to 10 times the scale so that some are
     * clipped, one row of zeros) and a label column y, as CSV with a header line, every value in full precision.
     */
    static Path writeCsv(Path file, int n, int d, long seed) throws IOException {
        SplittableRandom r = new SplittableRandom(seed);
        StringBuilder sb = new StringBuilder(String.join(",", featureNames(d))).append(",y\n");
        String[] classes = {"a", "b", "c"};
        for (int i = 0; i < n; i++) {
            int c = i % 3;
            double scale = Math.pow(10, r.nextDouble(-1, 1));
            for (int j = 0; j < d; j++) {
                double v = i == 7 ? 0.0 : scale * (r.nextGaussian() + (j % 3 == c ? 1.5 : 0.0));
                sb.append(Double.toString(v)).append(',');
            }
            sb.append(classes[c]).append('\n');
        }
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
        return file;
    }

    /** Largest relative difference of numbers; fails on any other difference (ignoring {@link #VOLATILE} fields). */
    static double compare(Path a, Path b) throws IOException {
        double[] worst = {0};
        compare(m.readTree(a.toFile()), m.readTree(b.toFile()), "$", worst);
        return worst[0];
    }

    private static void compare(JsonNode a, JsonNode b, String path, double[] worst) {
        if (a.isNumber() && b.isNumber()) {
            double x = a.asDouble();
            double y = b.asDouble();
            double rel = Math.abs(x - y) / Math.max(1.0, Math.max(Math.abs(x), Math.abs(y)));
            assertThat(rel).as(path + ": " + x + " vs " + y).isLessThanOrEqualTo(TOLERANCE);
            worst[0] = Math.max(worst[0], rel);
            return;
        }
        assertThat(b.getNodeType()).as(path).isEqualTo(a.getNodeType());
        if (a.isObject()) {
            List<String> ka = new ArrayList<>();
            a.fieldNames().forEachRemaining(ka::add);
            List<String> kb = new ArrayList<>();
            b.fieldNames().forEachRemaining(kb::add);
            assertThat(kb).as(path + " keys").isEqualTo(ka);
            for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!VOLATILE.contains(e.getKey())) {
                    compare(e.getValue(), b.get(e.getKey()), path + "." + e.getKey(), worst);
                }
            }
        } else if (a.isArray()) {
            assertThat(b.size()).as(path + " size").isEqualTo(a.size());
            for (int i = 0; i < a.size(); i++) {
                compare(a.get(i), b.get(i), path + "[" + i + "]", worst);
            }
        } else if (path.endsWith(".base64")) { // a matrix or vector of the artifact: little-endian doubles
            double[] x = doubles(a.asText());
            double[] y = doubles(b.asText());
            assertThat(y.length).as(path + " length").isEqualTo(x.length);
            for (int i = 0; i < x.length; i++) {
                compare(m.getNodeFactory().numberNode(x[i]), m.getNodeFactory().numberNode(y[i]), path + "[" + i + "]", worst);
            }
        } else {
            assertThat(b).as(path).isEqualTo(a);
        }
    }

    private static final ObjectMapper m = new ObjectMapper();

    private static double[] doubles(String base64) {
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(java.util.Base64.getDecoder().decode(base64)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        double[] out = new double[buf.remaining() / 8];
        buf.asDoubleBuffer().get(out);
        return out;
    }
}
