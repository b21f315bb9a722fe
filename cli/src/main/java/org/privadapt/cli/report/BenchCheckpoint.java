package org.privadapt.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A benchmark's results so far, kept in a file so that an interrupted {@code bench} resumes where it stopped.
 *
 * <p>The file is a bench report (the JSON of {@code --out}) rewritten atomically after every finished cell (one
 * task x method x swept value, all its repetitions): this call's cells, then those the file already held for other
 * tasks, methods or swept values (which it keeps). On opening, a file written with other settings is
 * refused: every configuration entry except the lists of tasks, methods and swept values must be equal, and every
 * dataset both runs read must have the same files (SHA-256). Cells are matched by task, method and swept value;
 * repetition r of a cell is seeded with seed + r whatever else runs, so with {@code --seed} a resumed bench gives
 * the numbers of an uninterrupted one.
 */
public final class BenchCheckpoint {
    /** Configuration entries that may differ between the runs sharing a checkpoint (they select cells). */
    static final Set<String> CELL_SELECTORS = Set.of("tasks", "methods", "sweep");

    /** A checkpoint that cannot be used: unreadable, not a bench report, or written with other settings. */
    public static final class CheckpointException extends Exception {
        public CheckpointException(String message) {
            super(message);
        }
    }

    private final Path file;
    private final Map<String, Report.TaskResult> done = new LinkedHashMap<>();
    private final JsonNode storedDatasets;

    private BenchCheckpoint(Path file, JsonNode storedDatasets) {
        this.file = file;
        this.storedDatasets = storedDatasets;
    }

    /**
     * Opens {@code file}: empty when it does not exist; otherwise its cells, after checking that it was written
     * with {@code config} (up to {@link #CELL_SELECTORS}).
     */
    public static BenchCheckpoint open(Path file, Map<String, Object> config) throws CheckpointException {
        if (!Files.exists(file)) {
            return new BenchCheckpoint(file, null);
        }
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new CheckpointException(file + ": not a readable JSON bench report (" + firstLine(e.getMessage())
                    + "); delete it or choose another --checkpoint file");
        }
        if (root == null || !"bench".equals(root.path("command").asText()) || !root.path("results").isArray()
                || !root.path("config").isObject()) {
            throw new CheckpointException(file + ": not a bench report (needs \"command\": \"bench\", \"config\" and "
                    + "\"results\"); delete it or choose another --checkpoint file");
        }
        ObjectNode stored = ((ObjectNode) root.get("config")).deepCopy();
        ObjectNode now = (ObjectNode) roundTrip(config);
        for (String k : CELL_SELECTORS) {
            stored.remove(k);
            now.remove(k);
        }
        if (!stored.equals(now)) {
            throw new CheckpointException(file + ": written with other settings (" + firstDifference(stored, now)
                    + "); delete it or choose another --checkpoint file");
        }
        BenchCheckpoint c = new BenchCheckpoint(file, root.get("datasets"));
        int i = 0;
        for (JsonNode r : root.get("results")) {
            Report.TaskResult t;
            try {
                t = Json.MAPPER.treeToValue(r, Report.TaskResult.class);
            } catch (IOException e) {
                throw new CheckpointException(file + ": results[" + i + "] is not a bench result (" + firstLine(e.getMessage()) + ")");
            }
            if (t.task() == null || t.method() == null || t.scores() == null || t.scores().size() != t.runs()) {
                throw new CheckpointException(file + ": results[" + i + "] is incomplete (task, method and one score per run needed)");
            }
            c.done.put(key(t.task(), t.method(), t.sweep()), t);
            i++;
        }
        return c;
    }

    /** The finished cell, if the checkpoint holds it. */
    public Optional<Report.TaskResult> find(String task, String method, Map<String, String> sweep) {
        return Optional.ofNullable(done.get(key(task, method, sweep)));
    }

    /** Number of cells the file held when opened. */
    public int size() {
        return done.size();
    }

    /**
     * Checks that a dataset read now was read from the same files when the checkpoint was written (when the
     * checkpoint mentions it at all).
     */
    public void checkDataset(Report.DatasetInfo now) throws CheckpointException {
        if (storedDatasets == null || !storedDatasets.isArray()) {
            return;
        }
        for (JsonNode d : storedDatasets) {
            if (now.domain().equals(d.path("domain").asText()) && now.role().equals(d.path("role").asText())) {
                JsonNode files = roundTrip(now.files());
                if (!files.equals(d.path("files"))) {
                    throw new CheckpointException(file + ": dataset " + now.domain() + " was read from other files (SHA-256 "
                            + "differs) when the checkpoint was written; delete it or choose another --checkpoint file");
                }
            }
        }
    }

    /**
     * Rewrites the file atomically with {@code report} (the results so far) followed by the cells the file held
     * that {@code report} does not have (other tasks, methods or swept values than this call's), so that calls
     * selecting different cells add to one checkpoint rather than replace it.
     */
    public void save(Report report) throws IOException {
        List<Report.TaskResult> all = new ArrayList<>(report.results());
        Set<String> have = new java.util.HashSet<>();
        for (Report.TaskResult r : all) {
            have.add(key(r.task(), r.method(), r.sweep()));
        }
        done.forEach((k, r) -> {
            if (!have.contains(k)) {
                all.add(r);
            }
        });
        Report merged = new Report(report.tool(), report.version(), report.command(), report.created(), report.environment(),
                report.config(), report.datasets(), all, report.warnings());
        AtomicFiles.writeAll(Map.of(file, (Json.write(merged) + "\n").getBytes(StandardCharsets.UTF_8)));
    }

    public Path file() {
        return file;
    }

    static String key(String task, String method, Map<String, String> sweep) {
        return task + "\u0000" + method + "\u0000" + (sweep == null ? Map.of() : new TreeMap<>(sweep));
    }

    /** As the value reads back from its JSON text (so that numbers compare as they would from the file). */
    private static JsonNode roundTrip(Object value) throws CheckpointException {
        try {
            return Json.MAPPER.readTree(Json.write(value));
        } catch (IOException e) {
            throw new CheckpointException("cannot compare with the checkpoint: " + firstLine(e.getMessage()));
        }
    }

    private static String firstDifference(ObjectNode stored, ObjectNode now) {
        List<String> names = new ArrayList<>();
        stored.fieldNames().forEachRemaining(names::add);
        for (Iterator<String> it = now.fieldNames(); it.hasNext();) {
            String n = it.next();
            if (!names.contains(n)) {
                names.add(n);
            }
        }
        for (String n : names) {
            JsonNode a = stored.get(n);
            JsonNode b = now.get(n);
            if (a == null || b == null || !a.equals(b)) {
                return "config." + n + " was " + (a == null ? "absent" : a.toString()) + ", now " + (b == null ? "absent" : b.toString());
            }
        }
        return "config differs";
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "no detail";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
