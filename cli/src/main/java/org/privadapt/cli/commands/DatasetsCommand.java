package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.Progress;
import org.privadapt.cli.report.Json;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.registry.BenchmarkRegistry;
import org.privadapt.data.registry.DataRoot;
import org.privadapt.data.registry.Suite;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privadapt datasets}: the benchmark suites, their domains and splits, the shape each has when read, and
 * whether its files are present under the data root.
 */
@Command(name = "datasets", mixinStandardHelpOptions = true,
        description = "List the benchmark suites, their domains and sizes, and whether their files are present.")
public final class DatasetsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--data-root", paramLabel = "DIR",
            description = "Benchmark data directory (default: $" + DataRoot.ENV + ", else ../shared/data from the project root).")
    java.nio.file.Path dataRoot;

    @Option(names = "--no-load", description = "Do not read the files; show the sizes MANIFEST.md documents.")
    boolean noLoad;

    @Option(names = "--json", description = "Print the listing as JSON on standard output.")
    boolean json;

    /** One row of the listing. */
    public record Row(String suite, String domain, String split, String status, Integer rows, Integer cols,
                      Integer expectedRows, Integer expectedCols, String labels, String error) {
    }

    /**
     * The missing file(s) a domain's split needs: those whose name holds the domain's name (and, when several do,
     * its split's), else every missing file of the suite (files shared by all domains).
     */
    static String missingFor(List<java.nio.file.Path> missing, String domain, String split) {
        String dl = domain.toLowerCase(java.util.Locale.ROOT);
        List<java.nio.file.Path> mine = missing.stream()
                .filter(p -> p.getFileName().toString().toLowerCase(java.util.Locale.ROOT).contains(dl)).toList();
        if (mine.size() > 1) {
            List<java.nio.file.Path> bySplit = mine.stream().filter(p -> p.getFileName().toString()
                    .toLowerCase(java.util.Locale.ROOT).contains(split.toLowerCase(java.util.Locale.ROOT))).toList();
            if (!bySplit.isEmpty()) {
                mine = bySplit;
            }
        }
        if (mine.isEmpty()) {
            // files shared by all domains, or another domain's: the suite cannot be read without them
            return "the suite needs " + missing.stream().map(java.nio.file.Path::toString)
                    .collect(java.util.stream.Collectors.joining(", "));
        }
        return mine.stream().map(java.nio.file.Path::toString).collect(java.util.stream.Collectors.joining(", "));
    }

    @Override
    public Integer call() {
        BenchmarkRegistry reg = BenchmarkRegistry.standard(DataRoot.resolve(dataRoot));
        List<Row> rows = new ArrayList<>();
        int total = 0;
        for (Suite s : reg.suites()) {
            for (Suite.Domain d : s.domains()) {
                total += d.splits().size();
            }
        }
        try (Progress p = Progress.start("reading", total, !json && !noLoad)) {
            for (Suite s : reg.suites()) {
                boolean present = reg.present(s);
                for (Suite.Domain d : s.domains()) {
                    for (Suite.Split sp : d.splits()) {
                        Integer er = sp.expectedRows() < 0 ? null : sp.expectedRows();
                        Integer ec = sp.expectedCols() < 0 ? null : sp.expectedCols();
                        if (!present) {
                            rows.add(new Row(s.name(), d.name(), sp.name(), "missing", null, null, er, ec, null,
                                    missingFor(reg.missingFiles(s), d.name(), sp.name())));
                        } else if (noLoad) {
                            rows.add(new Row(s.name(), d.name(), sp.name(), "present", null, null, er, ec, null, null));
                        } else {
                            try {
                                Dataset ds = reg.load(s.name(), d.name(), sp.name());
                                String labels = ds.labels().map(l -> l instanceof ClassLabels c ? c.numClasses() + " classes"
                                        : l instanceof org.privadapt.data.MultiLabels m ? m.numLabels() + " labels (multi-label)"
                                        : "real").orElse("none");
                                String status = (er != null && er != ds.size()) || (ec != null && ec != ds.dimension())
                                        ? "shape differs from MANIFEST" : "ok";
                                rows.add(new Row(s.name(), d.name(), sp.name(), status, ds.size(), ds.dimension(), er, ec, labels, null));
                            } catch (DataException e) {
                                rows.add(new Row(s.name(), d.name(), sp.name(), "unreadable", null, null, er, ec, null, e.getMessage()));
                            }
                        }
                        p.step();
                    }
                }
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("data_root", reg.root().toString());
            List<Map<String, Object>> suites = new ArrayList<>();
            for (Suite s : reg.suites()) {
                Map<String, Object> sm = new LinkedHashMap<>();
                sm.put("name", s.name());
                sm.put("title", s.title());
                sm.put("task", s.task());
                sm.put("present", reg.present(s));
                sm.put("files", s.files());
                sm.put("notes", s.notes());
                sm.put("domains", rows.stream().filter(r -> r.suite().equals(s.name())).toList());
                suites.add(sm);
            }
            m.put("suites", suites);
            out.println(Json.write(m));
        } else {
            out.println("data root: " + reg.root());
            for (Suite s : reg.suites()) {
                out.println();
                out.printf(Locale.ROOT, "%s  [%s]  %s%n", s.name(), reg.present(s) ? "present" : "MISSING", s.title());
                out.printf(Locale.ROOT, "  %-18s %-6s %8s %7s  %-12s %s%n", "domain", "split", "rows", "cols", "labels", "status");
                for (Row r : rows) {
                    if (!r.suite().equals(s.name())) {
                        continue;
                    }
                    Integer nr = r.rows() != null ? r.rows() : r.expectedRows();
                    Integer nc = r.cols() != null ? r.cols() : r.expectedCols();
                    out.printf(Locale.ROOT, "  %-18s %-6s %8s %7s  %-12s %s%n", r.domain(), r.split(),
                            nr == null ? "?" : nr.toString(), nc == null ? "?" : nc.toString(),
                            r.labels() == null ? "" : r.labels(),
                            r.status() + (r.error() != null ? ": " + r.error() : "")
                                    + ("shape differs from MANIFEST".equals(r.status()) ? " (" + r.expectedRows() + " x " + r.expectedCols() + ")" : ""));
                }
            }
        }
        return ExitCodes.OK;
    }
}
