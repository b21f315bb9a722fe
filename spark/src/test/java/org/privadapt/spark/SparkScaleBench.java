package org.privadapt.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.privadapt.data.io.DataFiles;
import org.privadapt.data.io.RowChunks;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.prima.Partition;
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
 * A benchmark (a {@code main}, not a unit test) of the Spark aggregates on a synthetic Parquet file, and of the
 * in-process streaming engine on the same rows as CSV. Run with the spark module's test classpath (docs/performance.md,
 * "Spark and streaming at scale"):
 *
 * <pre>
 * write N D DIR [csv]          Parquet DIR/parquet (and DIR/rows.csv, one file) of N x D values with 4 decimals and a
 *                              label y in four classes; untimed
 * spark DIR D REPS OP...       local[2] on DIR/parquet; OP: count (Spark's own count), check (requireValid), moments
 *                              (PRIMA's exact moments, single partition), prima (SparkPrima.noisyMoments), ncm, lda
 * stream DIR D REPS OP...      the streaming engine on DIR/rows.csv (4096-row blocks, no preprocessing); OP: prima, ncm
 * </pre>
 *
 * Each timed run prints {@code BENCH op seconds rows/s cpu seconds} (the process's CPU time over the run, all
 * threads: on a shared machine less dependent on the load than the wall time); the last line gives the peak heap and resident set.
 */
public final class SparkScaleBench {
    static final List<String> CLASSES = List.of("c0", "c1", "c2", "c3");

    private SparkScaleBench() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "write" -> write(Long.parseLong(args[1]), Integer.parseInt(args[2]), Path.of(args[3]), args.length > 4);
            case "spark" -> spark(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                    List.of(args).subList(4, args.length));
            case "stream" -> stream(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                    List.of(args).subList(4, args.length));
            default -> throw new IllegalArgumentException("write | spark | stream");
        }
        System.out.printf(Locale.ROOT, "BENCH-MEMORY peak-heap-MB %d peak-rss-MB %d%n", peakHeapMb(), vmHwmKb() / 1024);
        System.exit(0);
    }

    static SparkSession session() {
        return SparkSession.builder().master("local[2]").appName("privadapt-scale-bench")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
    }

    static List<String> names(int d) {
        List<String> f = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            f.add("f" + j);
        }
        return f;
    }

    static void write(long n, int d, Path dir, boolean csv) {
        SparkSession spark = session();
        List<Column> cols = new ArrayList<>();
        // rows of varying scale (some far outside R = 1 or the unit sphere, some inside) and a class-dependent mean
        Column scale = functions.pow(functions.lit(10.0), functions.rand(7).multiply(2).minus(1));
        Column label = functions.col("id").mod(4);
        for (int j = 0; j < d; j++) {
            Column v = functions.randn(100 + j).plus(functions.when(label.equalTo(j % 4), 1.5).otherwise(0.0)).multiply(scale);
            cols.add(functions.round(v, 4).as("f" + j));
        }
        cols.add(functions.concat(functions.lit("c"), label.cast("string")).as("y"));
        int files = (int) Math.max(1, Math.min(64, n * d * 8 / (64L << 20)));
        Dataset<Row> df = spark.range(0, n, 1, files).select(cols.toArray(new Column[0]));
        long t0 = System.nanoTime();
        df.write().mode("overwrite").parquet(dir.resolve("parquet").toString());
        System.out.printf(Locale.ROOT, "wrote %s in %.1f s (%d files)%n", dir.resolve("parquet"), (System.nanoTime() - t0) / 1e9, files);
        if (csv) {
            Path tmp = dir.resolve("csv-parts");
            spark.read().parquet(dir.resolve("parquet").toString()).coalesce(1).write().mode("overwrite")
                    .option("header", "true").csv(tmp.toString());
            try (var s = Files.list(tmp)) {
                Path part = s.filter(p -> p.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
                Files.move(part, dir.resolve("rows.csv"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            System.out.println("wrote " + dir.resolve("rows.csv"));
        }
    }

    static PrivacySession privacy() {
        return new PrivacySession("target", new PrivacyBudget(2.0, 1e-9), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(3), null);
    }

    static PrimaConfig primaConfig() {
        return PrimaConfig.from(PrimaConfig.prima(PrimaConfig.Adaptation.CORAL).with(PrimaConfig.Partitioning.SINGLE, true),
                new MethodConfig("lr", 0, 1, Map.of()));
    }

    static PrivateLearners.Plan plan(String learner, int d) {
        MethodConfig c = new MethodConfig("lr", 0, 1, Map.of("learner", learner, "learner-row-bound", "2.0"));
        return PrivateLearners.plan(c, 1000, d, CLASSES.size(), 2.0, 1e-9, NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1);
    }

    static void spark(Path dir, int d, int reps, List<String> ops) throws Exception {
        SparkSession spark = session();
        SparkTable table = SparkData.read(spark, "parquet:" + dir.resolve("parquet"), names(d), "y");
        long n = spark.read().parquet(dir.resolve("parquet").toString()).count();
        System.out.printf(Locale.ROOT, "BENCH-INFO rows %d d %d partitions %d%n", n, d, table.rows().javaRDD().getNumPartitions());
        PrimaConfig cfg = primaConfig();
        for (int rep = 0; rep < reps; rep++) {
            for (String op : ops) {
                long t0 = System.nanoTime();
                long cpu0 = cpuNanos();
                Object out = switch (op) {
                    case "count" -> table.rows().count();
                    case "check" -> table.requireValid();
                    case "moments" -> SparkPrima.exactMoments(table, cfg.rowBound(), Partition.single(d), null);
                    case "prima" -> SparkPrima.noisyMoments(table, cfg, "prima", 1L, privacy());
                    case "ncm" -> SparkClassStatistics.ncmRelease(plan("ncm", d), table, CLASSES, new SessionRandomness(NoiseSource.seeded(3)));
                    case "lda" -> SparkClassStatistics.ldaRelease(plan("lda", d), table, CLASSES, new SessionRandomness(NoiseSource.seeded(3)));
                    default -> throw new IllegalArgumentException("op " + op);
                };
                report(op, t0, cpu0, n, out);
            }
        }
    }

    static void stream(Path dir, int d, int reps, List<String> ops) throws Exception {
        Path csv = dir.resolve("rows.csv");
        DataFiles.Options unlabelled = new DataFiles.Options(null, null, null, false, false, List.of(), null, 0, null, true);
        PrimaConfig cfg = primaConfig();
        for (int rep = 0; rep < reps; rep++) {
            for (String op : ops) {
                long t0 = System.nanoTime();
                long cpu0 = cpuNanos();
                Object out;
                long n;
                switch (op) {
                    case "prima" -> {
                        StreamedMoments source = new StreamedMoments(RowChunks.open(csv, "bench", unlabelled), Preprocessing.none(), 4096, cfg);
                        n = source.prepare(1L).rows();
                        out = Prima.noisyMoments(source, cfg, "prima", 1L, privacy());
                    }
                    case "ncm" -> {
                        ClassStatistics exact = StreamedStatistics.ncmExact(RowChunks.open(csv, "bench", DataFiles.Options.DEFAULT),
                                Preprocessing.none(), 4096, CLASSES);
                        n = Math.round(java.util.Arrays.stream(exact.counts()).sum());
                        out = PrivateLearners.ncmNoise(plan("ncm", d), exact, new SessionRandomness(NoiseSource.seeded(3)));
                    }
                    default -> throw new IllegalArgumentException("op " + op);
                }
                report("stream-" + op, t0, cpu0, n, out);
            }
        }
    }

    static void report(String op, long t0, long cpu0, long n, Object out) {
        double s = (System.nanoTime() - t0) / 1e9;
        double cpu = (cpuNanos() - cpu0) / 1e9;
        System.out.printf(Locale.ROOT, "BENCH %-14s %8.2f s %12.0f rows/s  cpu %8.2f s%n", op, s, n / s, cpu);
        System.out.flush();
        if (out == null) {
            throw new IllegalStateException(op);
        }
    }

    /** The process's CPU time (all threads, native BLAS threads included), nanoseconds. */
    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static long peakHeapMb() {
        long heap = 0;
        for (var pool : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == java.lang.management.MemoryType.HEAP && pool.getPeakUsage() != null) {
                heap += pool.getPeakUsage().getUsed();
            }
        }
        return heap >> 20;
    }

    static long vmHwmKb() throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith("VmHWM:")) {
                return Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
