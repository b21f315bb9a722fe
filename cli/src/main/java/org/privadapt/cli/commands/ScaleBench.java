package org.privadapt.cli.commands;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.OutputOptions;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.Version;
import org.privadapt.cli.engine.RowEngine;
import org.privadapt.cli.report.Json;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Dataset;
import org.privadapt.data.io.DataFiles;
import org.privadapt.data.io.RowChunks;
import org.privadapt.data.preprocess.DefaultPreprocessing;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.stream.StreamedMoments;
import org.privadapt.methods.stream.StreamedStatistics;
import org.privadapt.models.dp.ClassStatistics;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * {@code privadapt bench scale}: synthetic rows (n x d, a label column of four classes) written to a temporary CSV, and
 * two releases timed on it by three engines, each in its own child JVM with a fixed {@code -Xmx}: the PRIMA target
 * release (single partition: the moments, the noise, the post-processing) and the ncm class statistics (exact sums and
 * noise), by (a) {@code load}: the whole-file loader, then the in-process release, (b) {@code stream}: the file read in
 * blocks ({@link RowChunks}), (c) {@code spark}: the Spark engine on local[2] (target release only; when Spark and the
 * engine are on this JVM's classpath, else the column says what to run). Each child first runs the same release on a
 * 2,000-row file of the same width (JIT, Spark's start), then the timed one; it reports the wall time, and its own peak
 * heap (the sum of the heap pools' peak usage, MemoryPoolMXBean) and peak resident set (VmHWM of /proc/self/status).
 */
final class ScaleBench {
    static final List<String> ENGINES = List.of("load", "stream", "spark");
    static final List<String> RELEASES = List.of("prima", "ncm");
    static final List<String> CLASSES = List.of("a", "b", "c", "d");
    static final Map<String, String> HEAP = Map.of("load", "16g", "stream", "1g", "spark", "4g");
    static final String[] SPARK_JVM_ARGS = ("-XX:+IgnoreUnrecognizedVMOptions --add-opens=java.base/java.lang=ALL-UNNAMED "
            + "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED "
            + "--add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED "
            + "--add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED "
            + "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED "
            + "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/sun.nio.cs=ALL-UNNAMED "
            + "--add-opens=java.base/sun.security.action=ALL-UNNAMED --add-opens=java.base/sun.util.calendar=ALL-UNNAMED "
            + "-Djdk.reflect.useDirectMethodHandle=false -Dio.netty.tryReflectionSetAccessible=true").split(" ");

    private final boolean quick;
    private final List<String> sizes;
    private final List<String> engines;
    private final PrintWriter out;
    private final PrintWriter err;
    private final OutputOptions output;

    ScaleBench(boolean quick, List<String> sizes, List<String> engines, PrintWriter out, PrintWriter err, OutputOptions output) {
        this.quick = quick;
        this.sizes = sizes;
        this.engines = engines == null || engines.isEmpty() ? ENGINES : engines;
        this.out = out;
        this.err = err;
        this.output = output;
    }

    /** One measured (or skipped) cell. */
    record Cell(long n, int d, double csvGb, String engine, String release, String heap, Double seconds, Double rowsPerSecond,
                Double peakHeapMb, Double peakRssMb, String note) {
    }

    static long[] parseSize(String s) {
        String[] p = s.toLowerCase(Locale.ROOT).split("x");
        if (p.length != 2) {
            throw new UsageException("--sizes: '" + s + "' is not NxD (e.g. 1e6x256)");
        }
        try {
            long n = (long) Double.parseDouble(p[0]);
            long d = Long.parseLong(p[1]);
            if (n < 1 || d < 1 || d > 100_000) {
                throw new NumberFormatException();
            }
            return new long[] {n, d};
        } catch (NumberFormatException e) {
            throw new UsageException("--sizes: '" + s + "' is not NxD with n >= 1 and 1 <= d <= 100000");
        }
    }

    int run() throws Exception {
        for (String e : engines) {
            if (!ENGINES.contains(e)) {
                throw new UsageException("--engines: '" + e + "' is not one of " + ENGINES);
            }
        }
        List<long[]> grid = new ArrayList<>();
        if (sizes != null && !sizes.isEmpty()) {
            sizes.forEach(s -> grid.add(parseSize(s.trim())));
        } else if (quick) {
            grid.add(new long[] {20_000, 16});
            grid.add(new long[] {100_000, 64});
        } else {
            for (long n : new long[] {100_000, 1_000_000, 10_000_000}) {
                for (long d : new long[] {64, 256, 1024}) {
                    grid.add(new long[] {n, d});
                }
            }
        }
        String sparkWhy = sparkAbsence();
        Path dir = Files.createTempDirectory("privadapt-scale");
        List<Cell> cells = new ArrayList<>();
        try {
            for (long[] nd : grid) {
                long n = nd[0];
                int d = (int) nd[1];
                double estimate = (double) n * (d * 8L + 2) / 1e9;
                long free = dir.toFile().getUsableSpace();
                if (estimate * 1e9 > 0.9 * free) {
                    for (String e : engines) {
                        for (String rel : RELEASES) {
                            cells.add(new Cell(n, d, estimate, e, rel, HEAP.get(e), null, null, null, null, String.format(Locale.ROOT,
                                    "not run: the CSV would be %.1f GB, %.1f GB free in %s", estimate, free / 1e9, dir)));
                        }
                    }
                    err.printf(Locale.ROOT, "bench scale: %d x %d skipped (CSV of %.1f GB, %.1f GB free)%n", n, d, estimate, free / 1e9);
                    err.flush();
                    continue;
                }
                Path csv = dir.resolve("rows-" + n + "x" + d + ".csv");
                long t0 = System.nanoTime();
                write(csv, n, d, 1);
                Path warm = dir.resolve("warm-" + d + ".csv");
                if (!Files.exists(warm)) {
                    write(warm, 2000, d, 2);
                }
                double gb = Files.size(csv) / 1e9;
                err.printf(Locale.ROOT, "bench scale: %d x %d: CSV of %.2f GB written in %.0f s%n", n, d, gb, (System.nanoTime() - t0) / 1e9);
                err.flush();
                for (String e : engines) {
                    for (String rel : RELEASES) {
                        Cell c;
                        if (e.equals("spark") && sparkWhy != null) {
                            c = new Cell(n, d, gb, e, rel, HEAP.get(e), null, null, null, null, sparkWhy);
                        } else if (e.equals("spark") && rel.equals("ncm")) {
                            c = new Cell(n, d, gb, e, rel, HEAP.get(e), null, null, null, null,
                                    "not measured: the CLI's Spark engine has no class-statistics entry (SparkClassStatistics is tested in spark/)");
                        } else {
                            c = child(e, rel, csv, warm, n, d, gb);
                        }
                        cells.add(c);
                        err.println("bench scale: " + line(c));
                        err.flush();
                    }
                }
                Files.deleteIfExists(csv);
            }
        } finally {
            try (var s = Files.list(dir)) {
                for (Path p : s.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        }
        String md = markdown(cells, sparkWhy);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("tool", "privadapt");
        report.put("version", Version.get());
        report.put("command", "bench scale");
        report.put("created", Instant.now().toString());
        report.put("java", System.getProperty("java.version"));
        report.put("cores", Runtime.getRuntime().availableProcessors());
        report.put("quick", quick);
        report.put("heap", HEAP);
        report.put("cells", cells);
        output.write(report, md, null, null);
        if (output.json) {
            out.println(Json.write(report));
        } else {
            out.print(md);
        }
        return ExitCodes.OK;
    }

    /** Null when the Spark engine can run in a child JVM with this classpath, else why not (the cell's note). */
    static String sparkAbsence() {
        try {
            Class.forName("org.apache.spark.sql.SparkSession", false, ScaleBench.class.getClassLoader());
            for (RowEngine e : ServiceLoader.load(RowEngine.class, ScaleBench.class.getClassLoader())) {
                if (e.name().equals("spark")) {
                    return null;
                }
            }
            return "not run: the Spark engine (spark-cli) is not on the classpath; run bench scale from privadapt-spark.jar with Spark's jars (docs/spark.md)";
        } catch (ClassNotFoundException | LinkageError | java.util.ServiceConfigurationError e) {
            return "not run: Apache Spark is not on the classpath; the Spark column needs privadapt-spark.jar (the spark-cli engine) with Spark's jars (docs/spark.md)";
        }
    }

    static String line(Cell c) {
        return String.format(Locale.ROOT, "%d x %d, %s %s: %s", c.n(), c.d(), c.engine(), c.release(), c.seconds() == null ? c.note()
                : String.format(Locale.ROOT, "%.1f s, %.0f rows/s, peak heap %.0f MB, peak RSS %.0f MB (-Xmx%s)%s", c.seconds(),
                        c.rowsPerSecond(), c.peakHeapMb(), c.peakRssMb(), c.heap(), c.note() == null ? "" : "; " + c.note()));
    }

    private Cell child(String engine, String release, Path csv, Path warm, long n, int d, double gb) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + HEAP.get(engine));
        if (engine.equals("spark")) {
            cmd.addAll(List.of(SPARK_JVM_ARGS));
        }
        String blas = System.getProperty("privadapt.blas");
        if (blas != null) {
            cmd.add("-Dprivadapt.blas=" + blas);
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), ScaleBench.class.getName(), engine, release, csv.toString(),
                warm.toString(), Integer.toString(d)));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        // as the launcher sets it: OpenBLAS's idle workers sleep after 2^20 cycles instead of spinning 2^28 between the
        // small per-block products (docs/performance.md, "BLAS threads spinning"), unless the caller chose a value
        pb.environment().putIfAbsent("OPENBLAS_THREAD_TIMEOUT", "20");
        Process p = pb.start();
        String result = null;
        List<String> tail = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String l;
            while ((l = r.readLine()) != null) {
                if (l.startsWith("SCALE-RESULT ")) {
                    result = l;
                } else {
                    tail.add(l);
                    if (tail.size() > 5) {
                        tail.remove(0);
                    }
                }
            }
        }
        int code = p.waitFor();
        if (result == null || code != 0) {
            String why = tail.stream().filter(s -> s.contains("OutOfMemoryError") || s.startsWith("SCALE-FAILED")).findFirst()
                    .orElse(tail.isEmpty() ? "exit " + code : tail.get(tail.size() - 1));
            return new Cell(n, d, gb, engine, release, HEAP.get(engine), null, null, null, null, "failed (exit " + code + "): "
                    + why.replace("SCALE-FAILED ", "").replace('|', '/'));
        }
        String[] f = result.split(" ");
        double seconds = Double.parseDouble(f[1]);
        return new Cell(n, d, gb, engine, release, HEAP.get(engine), seconds, n / seconds, Double.parseDouble(f[2]) / 1e6,
                Double.parseDouble(f[3]) / 1e3, f.length > 4 ? String.format(Locale.ROOT, "warm-up %.1f s", Double.parseDouble(f[4])) : null);
    }

    /** n rows of d features with 4 decimals (a class shift on every fourth feature) and a label column y (a..d). */
    static void write(Path file, long n, int d, long seed) throws IOException {
        SplittableRandom rng = new SplittableRandom(seed);
        byte[] row = new byte[d * 9 + 8];
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            StringBuilder h = new StringBuilder();
            for (int j = 0; j < d; j++) {
                h.append('f').append(j).append(',');
            }
            o.write(h.append("y\n").toString().getBytes(StandardCharsets.US_ASCII));
            for (long i = 0; i < n; i++) {
                int c = (int) (i % 4);
                int k = 0;
                for (int j = 0; j < d; j++) {
                    double v = rng.nextGaussian() + (j % 4 == c ? 1.0 : 0.0);
                    long q = Math.round(Math.max(-9.9999, Math.min(9.9999, v)) * 10000);
                    if (q < 0) {
                        row[k++] = '-';
                        q = -q;
                    }
                    row[k++] = (byte) ('0' + q / 10000);
                    row[k++] = '.';
                    row[k++] = (byte) ('0' + q / 1000 % 10);
                    row[k++] = (byte) ('0' + q / 100 % 10);
                    row[k++] = (byte) ('0' + q / 10 % 10);
                    row[k++] = (byte) ('0' + q % 10);
                    row[k++] = ',';
                }
                row[k++] = (byte) ('a' + c);
                row[k++] = '\n';
                o.write(row, 0, k);
            }
        }
    }

    static String markdown(List<Cell> cells, String sparkWhy) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "bench scale: %d cores, Java %s; each cell a child JVM (-Xmx: load %s, stream %s, spark %s); "
                + "rows/s = n / wall time of the release (read, check, preprocess l2,scale=floor(sqrt d), sums, noise; prima also its "
                + "post-processing), after a warm-up run on 2,000 rows.%n%n", Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), HEAP.get("load"), HEAP.get("stream"), HEAP.get("spark")));
        sb.append("| n | d | CSV GB | release | engine | seconds | rows/s | peak heap MB | peak RSS MB | note |\n");
        sb.append("|---:|---:|---:|---|---|---:|---:|---:|---:|---|\n");
        for (Cell c : cells) {
            sb.append(String.format(Locale.ROOT, "| %d | %d | %.2f | %s | %s | %s | %s | %s | %s | %s |%n", c.n(), c.d(), c.csvGb(), c.release(),
                    c.engine(), c.seconds() == null ? "" : String.format(Locale.ROOT, "%.1f", c.seconds()),
                    c.rowsPerSecond() == null ? "" : String.format(Locale.ROOT, "%.0f", c.rowsPerSecond()),
                    c.peakHeapMb() == null ? "" : String.format(Locale.ROOT, "%.0f", c.peakHeapMb()),
                    c.peakRssMb() == null ? "" : String.format(Locale.ROOT, "%.0f", c.peakRssMb()),
                    c.note() == null ? "" : c.note()));
        }
        if (sparkWhy != null) {
            sb.append("\nSpark: ").append(sparkWhy).append('\n');
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------ the child JVM

    /** The child: {@code ENGINE RELEASE CSV WARM_CSV D}; prints {@code SCALE-RESULT seconds peakHeapBytes vmHwmKb warmSeconds}. */
    public static void main(String[] args) {
        try {
            String engine = args[0];
            String release = args[1];
            Path csv = Path.of(args[2]);
            Path warm = Path.of(args[3]);
            int d = Integer.parseInt(args[4]);
            long w0 = System.nanoTime();
            once(engine, release, warm, d);
            double warmSeconds = (System.nanoTime() - w0) / 1e9;
            long t0 = System.nanoTime();
            once(engine, release, csv, d);
            double seconds = (System.nanoTime() - t0) / 1e9;
            long heap = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                    heap += pool.getPeakUsage().getUsed();
                }
            }
            // G1's pools (and MemoryMXBean) update eden's use at collections: a run too small to collect reports 0 there;
            // the heap's own count of used bytes (Runtime: capacity less free) includes the regions being allocated in
            Runtime rt = Runtime.getRuntime();
            heap = Math.max(heap, rt.totalMemory() - rt.freeMemory());
            System.out.printf(Locale.ROOT, "SCALE-RESULT %.9f %d %d %.9f%n", seconds, heap, vmHwmKb(), warmSeconds); // ns: a tiny cell takes under a millisecond
            System.out.flush();
            System.exit(0);
        } catch (Throwable t) {
            System.out.println("SCALE-FAILED " + t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": "
                    + t.getMessage().lines().findFirst().orElse("")));
            System.out.flush();
            System.exit(1);
        }
    }

    static long vmHwmKb() throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith("VmHWM:")) {
                return Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    static PrivacySession session() {
        return new PrivacySession("target", new PrivacyBudget(2.0, 1e-9), NeighbouringRelation.ADD_OR_REMOVE_ONE, NoiseSource.seeded(3), null);
    }

    static Object once(String engine, String release, Path csv, int d) throws Exception {
        String pre = DefaultPreprocessing.forPrivate(d).spec();
        Preprocessing steps = Preprocessing.parse(pre);
        PrimaConfig cfg = PrimaConfig.from(PrimaConfig.prima(PrimaConfig.Adaptation.CORAL).with(PrimaConfig.Partitioning.SINGLE, true),
                new MethodConfig("lr", 0, 1, Map.of()));
        DataFiles.Options target = new DataFiles.Options(null, null, null, false, false, List.of(), null, 0, null, true);
        String name = csv.getFileName().toString();
        if (release.equals("prima")) {
            switch (engine) {
                case "load" -> {
                    Dataset t = steps.fitAndApply(DataFiles.load(csv, name, target).requireNonEmpty().requireFinite()).withoutLabels();
                    return Prima.release(t, cfg, pre, "prima", 1L, "bench", session());
                }
                case "stream" -> {
                    StreamedMoments source = new StreamedMoments(RowChunks.open(csv, name, target), steps,
                            org.privadapt.cli.engine.EngineOptions.DEFAULT_CHUNK_ROWS, cfg);
                    source.prepare(1L);
                    PrivacySession s = session();
                    return Prima.release(Prima.noisyMoments(source, cfg, "prima", 1L, s), cfg, pre, "prima", "bench", s);
                }
                default -> {
                    RowEngine eng = null;
                    for (RowEngine e : ServiceLoader.load(RowEngine.class, ScaleBench.class.getClassLoader())) {
                        if (e.name().equals("spark")) {
                            eng = e;
                        }
                    }
                    List<String> cols = new ArrayList<>();
                    for (int j = 0; j < d; j++) {
                        cols.add("f" + j);
                    }
                    try (RowEngine.PartyRows rows = eng.open(new RowEngine.Request("csv:" + csv, cols, null, pre, "local[2]"))) {
                        return rows.targetRelease(cfg, pre, "prima", "bench", session());
                    }
                }
            }
        }
        MethodConfig c = new MethodConfig("lr", 0, 1, Map.of("learner", "ncm"));
        switch (engine) {
            case "load" -> {
                Dataset all = steps.fitAndApply(DataFiles.load(csv, name, DataFiles.Options.DEFAULT).requireNonEmpty().requireFinite());
                ClassLabels y = (ClassLabels) all.labels().orElseThrow();
                PrivateLearners.Plan plan = PrivateLearners.plan(c, 1000, d, y.names().size(), 2.0, 1e-9,
                        NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1);
                return PrivateLearners.ncmRelease(plan, all.features(), y.codes(), y.names().size(), new SessionRandomness(NoiseSource.seeded(3)));
            }
            case "stream" -> {
                ClassStatistics exact = StreamedStatistics.ncmExact(RowChunks.open(csv, name, DataFiles.Options.DEFAULT), steps,
                        org.privadapt.cli.engine.EngineOptions.DEFAULT_CHUNK_ROWS, CLASSES);
                PrivateLearners.Plan plan = PrivateLearners.plan(c, 1000, d, CLASSES.size(), 2.0, 1e-9,
                        NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1);
                return PrivateLearners.ncmNoise(plan, exact, new SessionRandomness(NoiseSource.seeded(3)));
            }
            default -> throw new IllegalArgumentException("no ncm on " + engine);
        }
    }
}
