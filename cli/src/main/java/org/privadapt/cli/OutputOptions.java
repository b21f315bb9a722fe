package org.privadapt.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.privadapt.cli.report.AtomicFiles;
import org.privadapt.cli.report.Json;
import picocli.CommandLine.Option;

/** Report destinations shared by {@code run} and {@code bench}. Everything is written at the end, all or nothing. */
public final class OutputOptions {
    @Option(names = "--json", description = "Print the machine-readable JSON result on standard output (instead of text).")
    public boolean json;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the JSON result to FILE.")
    public Path out;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Write a Markdown summary table to FILE.")
    public Path markdown;

    /** Writes the requested files atomically; the plot only when given. */
    public void write(Object report, String markdownText, Path plot, byte[] png) {
        Map<Path, byte[]> files = new LinkedHashMap<>();
        if (out != null) {
            files.put(out, (Json.write(report) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        if (markdown != null) {
            files.put(markdown, markdownText.getBytes(StandardCharsets.UTF_8));
        }
        if (plot != null && png != null) {
            files.put(plot, png);
        }
        if (files.isEmpty()) {
            return;
        }
        try {
            AtomicFiles.writeAll(files);
        } catch (IOException e) {
            throw new UsageException("cannot write output: " + e.getMessage(), e);
        }
    }
}
