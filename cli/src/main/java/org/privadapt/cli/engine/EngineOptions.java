package org.privadapt.cli.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.privadapt.cli.UsageException;
import picocli.CommandLine.Option;

/**
 * Where a party's release is computed: in this JVM ({@code --engine inprocess}, the default) or on Apache Spark
 * ({@code --engine spark}, with {@code --data parquet:PATH|csv:PATH|table:NAME} and the columns named). The Spark
 * engine is the {@code spark-cli} module's {@link RowEngine}, found by {@link ServiceLoader}: the plain CLI jar has no
 * Spark class, and says which command to run instead (docs/spark.md).
 */
public final class EngineOptions {
    /** The jar that carries the Spark engine, built by {@code ./mvnw -pl spark-cli -am package}. */
    public static final String SPARK_JAR = "spark-cli/target/privadapt-spark.jar";

    @Option(names = "--engine", paramLabel = "inprocess|stream|spark", defaultValue = "inprocess",
            description = "Where the release is computed: inprocess (this JVM loads the rows; default), stream (this JVM reads a "
                    + "CSV/TSV/text file in blocks of --chunk-rows rows: memory O(d^2 + block), not O(n d); the same artifact "
                    + "and ledger) or spark (the rows stay in Parquet/CSV/a table, the statistic is one Spark aggregate, the "
                    + "noise, the charge and the ledger stay in this JVM, the driver; ./privadapt runs it on a local master, spark-submit "
                    + "with " + SPARK_JAR + " on a cluster, docs/spark.md).")
    String engine;

    /** The default block of {@code --engine stream}. */
    public static final int DEFAULT_CHUNK_ROWS = 4096;

    /** The largest {@code --chunk-rows}: a block is one array of rows x features values. */
    public static final int MAX_CHUNK_ROWS = 1_000_000;

    @Option(names = "--chunk-rows", paramLabel = "N",
            description = "--engine stream: rows per block, 1 to " + MAX_CHUNK_ROWS + " (default " + DEFAULT_CHUNK_ROWS + "); the "
                    + "result does not depend on it beyond rounding, memory does.")
    Integer chunkRows;

    @Option(names = "--spark-master", paramLabel = "URL",
            description = "--engine spark: the Spark master (local[2], yarn, k8s://...; default: what spark-submit set, else local[*]).")
    String master;

    @Option(names = "--feature-columns", split = ",", paramLabel = "COL",
            description = "--engine spark: the feature columns, in order (the layout, public); with --label-column for the labels.")
    List<String> featureColumns = List.of();

    @Option(names = "--features-column", paramLabel = "COL",
            description = "--engine spark: the features in one column, instead of --feature-columns: a Spark ML vector column "
                    + "(VectorAssembler's output; dense or sparse) or an array<double>; d from its ML metadata, else its first row "
                    + "(the layout, as a CSV header). Taken by 'target release', 'source train', 'source release', 'run' and 'target predict'.")
    String featuresColumn;

    @Option(names = "--verbose", description = "--engine spark: Spark's own log at its INFO level (default: warnings and errors only).")
    boolean verbose;

    @Option(names = "--spark-ui", description = "--engine spark: start Spark's web UI (default: off; a command that handles private "
            + "rows opens no UI port unless asked).")
    boolean ui;

    /** True for {@code --engine spark}; checks the options of the engine chosen (usage errors, before anything is read). */
    public boolean spark() {
        switch (engine) {
            case "inprocess":
            case "stream":
                if (master != null || !featureColumns.isEmpty() || featuresColumn != null || verbose || ui) {
                    throw new UsageException((master != null ? "--spark-master" : !featureColumns.isEmpty() ? "--feature-columns"
                            : featuresColumn != null ? "--features-column" : verbose ? "--verbose" : "--spark-ui")
                            + " applies with --engine spark only");
                }
                if (chunkRows != null && engine.equals("inprocess")) {
                    throw new UsageException("--chunk-rows applies with --engine stream only");
                }
                if (chunkRows != null && (chunkRows < 1 || chunkRows > MAX_CHUNK_ROWS)) {
                    throw new UsageException("--chunk-rows must be in [1, " + MAX_CHUNK_ROWS + "], got " + chunkRows);
                }
                return false;
            case "spark":
                if (chunkRows != null) {
                    throw new UsageException("--chunk-rows applies with --engine stream only");
                }
                if (featureColumns.isEmpty() == (featuresColumn == null)) {
                    throw new UsageException(featuresColumn == null ? "--engine spark: name the feature columns (--feature-columns a,b,c) "
                            + "or the features column (--features-column NAME)" : "--feature-columns and --features-column: give one");
                }
                if (featuresColumn != null) {
                    return true;
                }
                if (featureColumns.stream().anyMatch(String::isBlank) || featureColumns.stream().distinct().count() != featureColumns.size()) {
                    throw new UsageException("--feature-columns: empty or repeated column in " + featureColumns);
                }
                return true;
            default:
                throw new UsageException("--engine must be inprocess, stream or spark, got '" + engine + "'");
        }
    }

    /** True for {@code --engine stream} (after the checks of {@link #spark()}). */
    public boolean stream() {
        return !spark() && engine.equals("stream");
    }

    /** The rows per block of {@code --engine stream}. */
    public int chunkRows() {
        return chunkRows == null ? DEFAULT_CHUNK_ROWS : chunkRows;
    }

    /**
     * The rows per block for rows of {@code d} features (the header's, public): a usage error when a block would not
     * fit in one array or in half of this JVM's heap (a block is held twice: as read and preprocessed), before anything
     * is charged. The default block shrinks to fit instead.
     */
    public int chunkRows(int d) {
        long perRow = 16L * Math.max(1, d);
        long fit = Math.min(org.privadapt.data.io.RowChunks.maxChunkRows(d), Runtime.getRuntime().maxMemory() / 2 / perRow);
        if (chunkRows == null) {
            return (int) Math.max(1, Math.min(DEFAULT_CHUNK_ROWS, fit));
        }
        if (chunkRows > fit) {
            throw new UsageException("--chunk-rows " + chunkRows + ": a block of " + chunkRows + " rows x " + d + " features does "
                    + "not fit in " + (fit == org.privadapt.data.io.RowChunks.maxChunkRows(d) ? "one array" : "half of this JVM's heap ("
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MB)") + "; use at most " + Math.max(1, fit));
        }
        return chunkRows;
    }

    public String master() {
        return master;
    }

    /** What the Spark engine reads for one party: these options' columns, master and logging, with the party's data. */
    public RowEngine.Request request(String data, String labelColumn, String preprocessing) {
        return new RowEngine.Request(data, featureColumns, featuresColumn, labelColumn, preprocessing, master, verbose, ui);
    }

    /** The number of features: the named columns', or the features column's (read by the engine from the layout). */
    public int dimension(RowEngine eng, String data) throws org.privadapt.data.DataException {
        return featuresColumn == null ? featureColumns.size() : eng.dimension(request(data, null, "none"));
    }

    /** The feature columns' names for a report: the named columns, or {@code NAME[0..d-1]} of a features column. */
    public List<String> featureNames(int d) {
        if (featuresColumn == null) {
            return featureColumns;
        }
        List<String> names = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            names.add(featuresColumn + "[" + j + "]");
        }
        return names;
    }

    /** The features column's name ({@code --features-column}), or null when the features are named columns. */
    public String featuresColumn() {
        return featuresColumn;
    }

    public List<String> featureColumns() {
        return featureColumns;
    }

    /**
     * Refuses {@code --engine spark} and {@code --engine stream} on a command that has no such path yet (a usage error
     * naming the one that does).
     */
    public void refuseSpark(String command) {
        if (stream()) {
            throw new UsageException(command + " has no --engine stream path yet; --engine stream is taken by 'target release' "
                    + "(prima, prisa and the PRIMA ablations) and 'source train' (learner ncm or lda) only (docs/spark.md)");
        }
        if (spark()) {
            throw new UsageException(command + " has no --engine spark path yet; --engine spark is taken by 'target release' "
                    + "(prima, prisa and the PRIMA ablations), 'source train' (learner ncm, lda, dp-sgd or dp-gd), 'source release --method dpot' or "
                    + "'--method dp-uda-gmm', and 'run' (prima, prisa, dp-source-only: learner ncm, lda, dp-sgd or dp-gd; source-only, coral, "
                    + "sa; dp-target-only, pcnvxadap-stats) only (docs/spark.md)");
        }
    }

    /** The data spec for the Spark engine: parquet:PATH, csv:PATH or table:NAME. */
    public static String sparkData(String spec) {
        int colon = spec.indexOf(':');
        String kind = colon < 0 ? "" : spec.substring(0, colon);
        if (!List.of("parquet", "csv", "table").contains(kind) || colon == spec.length() - 1) {
            throw new UsageException("--data " + spec + ": --engine spark reads parquet:PATH, csv:PATH (a header line) or table:NAME");
        }
        return spec;
    }

    /**
     * The Spark engine of this JVM; if Spark or the engine is not on the classpath, an {@link EngineUnavailableException}
     * (exit code 6) whose message is the spark-submit command to run instead, with these arguments.
     */
    public static RowEngine sparkEngine(List<String> args) {
        String why;
        try {
            Class.forName("org.apache.spark.sql.SparkSession", false, EngineOptions.class.getClassLoader());
            for (RowEngine e : ServiceLoader.load(RowEngine.class, EngineOptions.class.getClassLoader())) {
                if (e.name().equals("spark")) {
                    return e;
                }
            }
            why = "the Spark engine (module spark-cli) is not on the classpath";
        } catch (ClassNotFoundException | LinkageError | java.util.ServiceConfigurationError e) {
            why = "Apache Spark is not on the classpath";
        }
        throw new EngineUnavailableException("--engine spark: " + why + "; run it with Spark's launcher: spark-submit --class "
                + "org.privadapt.cli.Main " + sparkJar() + " " + shellJoin(args) + " (on one machine ./privadapt runs it on a local "
                + "master; docs/spark.md)");
    }

    /** The Spark jar beside this build's CLI jar, when it can be located, else its path in a build tree. */
    static String sparkJar() {
        try {
            Path self = Path.of(EngineOptions.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // cli/target/privadapt.jar (or cli/target/classes) -> <root>/spark-cli/target/privadapt-spark.jar
            Path root = self.getParent() == null || self.getParent().getParent() == null ? null : self.getParent().getParent().getParent();
            if (root != null && Files.isDirectory(root.resolve("spark-cli"))) {
                Path jar = root.resolve(SPARK_JAR).normalize();
                Path cwd = Path.of("").toAbsolutePath();
                return jar.startsWith(cwd) ? cwd.relativize(jar).toString() : jar.toString();
            }
        } catch (Exception | LinkageError e) {
            // fall through: the path in a build tree
        }
        return SPARK_JAR;
    }

    static String shellJoin(List<String> args) {
        List<String> out = new ArrayList<>();
        for (String a : args) {
            out.add(a.matches("[A-Za-z0-9_./=:,@%+-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return String.join(" ", out);
    }
}
