package org.privadapt.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The report package is the lower layer (result model, formatting, writing): the command line
 * ({@code org.privadapt.cli} and its {@code commands}) uses it, never the reverse, so that the two packages do not form
 * a cycle. Checked on the sources (qualified names, imports, and simple names of the command line's classes) and on
 * the compiled classes (every class a report class refers to is named in its constant pool).
 */
class ReportLayeringTest {
    /** A reference to a class of org.privadapt.cli or of a package under it other than report. */
    private static final Pattern QUALIFIED = Pattern.compile("org\\s*\\.\\s*privadapt\\s*\\.\\s*cli\\s*\\.\\s*(?!report\\s*[.;])(\\w+|\\*)");
    private static final Pattern INTERNAL = Pattern.compile("org/privadapt/cli/(?!report/)\\w+");
    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|interface|enum|record)\\s+(\\w+)");

    private static Path sourceRoot() {
        Path here = Path.of("src/main/java/org/privadapt/cli");
        if (Files.isDirectory(here)) {
            return here;
        }
        return Path.of(System.getProperty("privadapt.home", "."), "cli/src/main/java/org/privadapt/cli");
    }

    private static List<Path> javaFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList());
        }
    }

    /** The source without comments, string, text-block and character literals (their contents are not references). */
    static String code(String src) {
        StringBuilder out = new StringBuilder(src.length());
        int i = 0;
        int n = src.length();
        while (i < n) {
            char c = src.charAt(i);
            if (c == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
                while (i < n && src.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
                int end = src.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (src.startsWith("\"\"\"", i)) {
                int end = src.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < n && src.charAt(i) != c) {
                    i += src.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
                out.append(c).append(c);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** Each reference of {@code src} (a report source) to a class of the command line, given the latter's simple names. */
    static List<String> violations(String src, Set<String> cliClasses) {
        String code = code(src);
        List<String> found = new ArrayList<>();
        Matcher q = QUALIFIED.matcher(code);
        while (q.find()) {
            found.add(q.group().replaceAll("\\s", ""));
        }
        Set<String> own = new TreeSet<>();
        Matcher d = DECLARED.matcher(code);
        while (d.find()) {
            own.add(d.group(1));
        }
        for (String name : cliClasses) {
            // a simple name can only reach the command line through an import (found above), unless the report
            // declares a type of the same name; flagged anyway, so that no such reference goes unnoticed
            if (!own.contains(name) && Pattern.compile("(?<![\\w.])" + name + "\\b").matcher(code).find()) {
                found.add(name);
            }
        }
        return found;
    }

    private static Set<String> cliClassNames() throws IOException {
        Set<String> names = new TreeSet<>();
        for (Path p : javaFiles(sourceRoot())) {
            String name = p.getFileName().toString().replace(".java", "");
            if (!name.equals("package-info")) {
                names.add(name);
            }
        }
        return names;
    }

    @Test
    void noReportSourceRefersToTheCommandLine() throws IOException {
        Set<String> cli = cliClassNames();
        assertThat(cli).contains("Runs", "Main");
        List<Path> report = javaFiles(sourceRoot().resolve("report"));
        assertThat(report).extracting(p -> p.getFileName().toString()).contains("Report.java", "Stats.java");
        List<String> bad = new ArrayList<>();
        for (Path p : report) {
            for (String v : violations(Files.readString(p, StandardCharsets.UTF_8), cli)) {
                bad.add(p.getFileName() + ": " + v);
            }
        }
        assertThat(bad).as("classes of org.privadapt.cli.report referring to org.privadapt.cli").isEmpty();
    }

    @Test
    void noCompiledReportClassRefersToTheCommandLine() throws IOException, URISyntaxException {
        Path classes = Path.of(Report.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("org/privadapt/cli/report");
        List<String> bad = new ArrayList<>();
        int seen = 0;
        try (Stream<Path> s = Files.list(classes)) {
            for (Path p : s.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                seen++;
                Matcher m = INTERNAL.matcher(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
                while (m.find()) {
                    bad.add(p.getFileName() + ": " + m.group());
                }
            }
        }
        assertThat(seen).isGreaterThan(5);
        assertThat(bad).as("compiled classes of org.privadapt.cli.report referring to org.privadapt.cli").isEmpty();
    }

    @Test
    void theCheckFindsEachKindOfReference() {
        Set<String> cli = Set.of("Runs", "Main", "UsageException");
        assertThat(violations("package org.privadapt.cli.report;\nimport org.privadapt.cli.Runs;\nclass A {}", cli))
                .contains("org.privadapt.cli.Runs");
        assertThat(violations("class A { double m = org.privadapt.cli.Runs.mean(null); }", cli)).contains("org.privadapt.cli.Runs");
        assertThat(violations("import org.privadapt.cli.*; class A {}", cli)).contains("org.privadapt.cli.*");
        assertThat(violations("import static org.privadapt.cli.Runs.mean; class A {}", cli)).contains("org.privadapt.cli.Runs");
        assertThat(violations("class A { Object o = org.privadapt.cli.commands.Bench.class; }", cli))
                .contains("org.privadapt.cli.commands");
        assertThat(violations("class A { double m = Runs.std(null); }", cli)).containsExactly("Runs");
        assertThat(violations("class A { void f() throws UsageException {} }", cli)).containsExactly("UsageException");
        // not references: the report's own package, comments, strings, a member or a type of the same name declared here
        assertThat(violations("package org.privadapt.cli.report;\nimport org.privadapt.cli.report.Json;\n"
                + "/** {@link org.privadapt.cli.Runs} */ class A { // Runs.mean\n String s = \"org.privadapt.cli.Main\";"
                + " int x = this.Main; record Runs() {} }", cli)).isEmpty();
    }
}
