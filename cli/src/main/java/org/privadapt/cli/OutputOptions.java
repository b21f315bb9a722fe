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
    /** {@code --json} without a file: the JSON goes to standard output instead of the text. */
    public boolean json;

    /** {@code --json FILE.json}: the JSON is written to FILE (as with {@code --out}) and the text printed. */
    public Path jsonFile;

    @Option(names = "--json", arity = "0..1", paramLabel = "FILE.json", parameterConsumer = JsonTarget.class,
            description = "Without a value: print the machine-readable JSON result on standard output (instead of text). "
                    + "With a file name: write the JSON result to that file (as --out).")
    void json(String file) {
        if (file == null || file.isEmpty()) {
            json = true;
        } else {
            jsonFile = Path.of(file);
        }
    }

    /**
     * Takes the word after {@code --json} as its file when it is not an option and looks like a file: it ends in
     * {@code .json}, holds a '.' or '/' (suite names hold neither), or the command takes no positional parameter
     * at all. So {@code bench --json office-caltech10} still reads the suite name as the positional parameter, and
     * {@code run ... --json out.txt} writes out.txt instead of failing with "Unmatched argument".
     */
    static final class JsonTarget implements picocli.CommandLine.IParameterConsumer {
        @Override
        public void consumeParameters(java.util.Stack<String> args, picocli.CommandLine.Model.ArgSpec argSpec,
                                      picocli.CommandLine.Model.CommandSpec commandSpec) {
            String next = args.isEmpty() ? null : args.peek();
            boolean fileLike = next != null && (next.toLowerCase(java.util.Locale.ROOT).endsWith(".json")
                    || next.indexOf('.') >= 0 || next.indexOf('/') >= 0 || commandSpec.positionalParameters().isEmpty());
            if (next != null && !next.startsWith("-") && fileLike) {
                argSpec.setValue(args.pop());
            } else {
                argSpec.setValue("");
            }
        }
    }

    @Option(names = "--out", paramLabel = "FILE", description = "Write the JSON result to FILE.")
    public Path out;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Write a Markdown summary table to FILE.")
    public Path markdown;

    /**
     * Checks, before anything is read, spent or written, that every requested output (and {@code plot}, when not
     * null) can be written: a run that charges a ledger must not learn only at the end that its report is lost.
     */
    public void requireWritable(Path plot) {
        if (out != null) {
            PartyOptions.requireWritable(out, "--out");
        }
        if (jsonFile != null) {
            PartyOptions.requireWritable(jsonFile, "--json");
        }
        if (markdown != null) {
            PartyOptions.requireWritable(markdown, "--markdown");
        }
        if (plot != null) {
            PartyOptions.requireWritable(plot, "--plot");
        }
    }

    /** Writes the requested files atomically; the plot only when given. */
    public void write(Object report, String markdownText, Path plot, byte[] png) {
        Map<Path, byte[]> files = new LinkedHashMap<>();
        for (Path p : new Path[] {out, jsonFile}) {
            if (p != null) {
                files.put(p, (Json.write(report) + "\n").getBytes(StandardCharsets.UTF_8));
            }
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
