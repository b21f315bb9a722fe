package org.privadapt.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.Dataset;
import org.privadapt.data.PublicFacts;
import org.privadapt.data.synthetic.SyntheticShift;

/**
 * Issue 46, item 6: every Java snippet the README and the javadoc show compiles and runs as written.
 *
 * <ul>
 *   <li>The README's Java section is a whole program: it must be {@link JavaApiTour}'s source (from its first import
 *       to its end) character for character; {@link ExamplesTest} compiles and runs that program.</li>
 *   <li>Every javadoc {@code <pre>{@code ...}</pre>} block of the main sources is compiled as the body of a method
 *       whose parameters are the names the snippets use for their inputs ({@code xs, xt, ys, x, y, xTest, source,
 *       target, evaluation}), with the public packages imported, and run on a small generated problem; a relative
 *       {@code Path.of("f")} is redirected into a temporary directory so that nothing is written beside the build.</li>
 * </ul>
 */
class SnippetsTest {
    static final List<String> IMPORTS = List.of("java.nio.file.*", "java.util.*", "org.privadapt.da.*", "org.privadapt.dp.*",
            "org.privadapt.data.*", "org.privadapt.methods.core.*", "org.privadapt.methods.prima.*", "org.privadapt.privacy.*",
            "org.privadapt.privacy.ledger.*");
    static final String PARAMETERS = "Path dir, double[][] xs, double[][] xt, int[] ys, double[][] x, int[] y, double[][] xTest, "
            + "Dataset source, Dataset target, Dataset evaluation";

    @TempDir
    Path dir;

    static Path root() {
        for (Path q = Path.of("").toAbsolutePath(); q != null; q = q.getParent()) {
            if (Files.isRegularFile(q.resolve("README.md")) && Files.isDirectory(q.resolve("examples"))) {
                return q;
            }
        }
        throw new IllegalStateException("the repository root is not above " + Path.of("").toAbsolutePath());
    }

    @Test
    void theReadmesJavaSectionIsTheTourProgram() throws Exception {
        Path root = root();
        String readme = Files.readString(root.resolve("README.md"));
        int section = readme.indexOf("## The Java API");
        assertThat(section).as("the README has a Java API section").isNotNegative();
        Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertThat(m.find(section)).as("a java block in that section").isTrue();
        String shown = m.group(1);
        String source = Files.readString(root.resolve("examples/src/main/java/org/privadapt/examples/JavaApiTour.java"));
        String fromImports = source.substring(source.indexOf("import "));
        assertThat(shown).isEqualTo(fromImports);
        // no other java block in the README that is not checked
        int blocks = 0;
        Matcher all = Pattern.compile("```java\\n").matcher(readme);
        while (all.find()) {
            blocks++;
        }
        assertThat(blocks).as("java blocks in the README (each must be checked here)").isEqualTo(1);
    }

    /** The javadoc code blocks of the main sources, with where they are. */
    static List<String[]> javadocSnippets(Path root) throws Exception {
        List<String[]> out = new ArrayList<>();
        Pattern block = Pattern.compile("<pre>\\{@code\\n(.*?)\\n\\s*\\*\\s*\\}</pre>", Pattern.DOTALL);
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.toString();
                if (!name.endsWith(".java") || !name.contains("/src/main/java/") || name.contains("/target/")) {
                    continue;
                }
                String text = Files.readString(f);
                Matcher m = block.matcher(text);
                while (m.find()) {
                    StringBuilder body = new StringBuilder();
                    for (String line : m.group(1).split("\n")) {
                        body.append(line.replaceFirst("^\\s*\\* ?", "")).append('\n');
                    }
                    out.add(new String[] {root.relativize(f).toString(), body.toString()});
                }
            }
        }
        return out;
    }

    @Test
    void everyJavadocSnippetCompilesAndRuns() throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Assumptions.assumeTrue(javac != null, "needs a JDK (javax.tools) to compile the snippets");
        List<String[]> snippets = javadocSnippets(root());
        assertThat(snippets).as("javadoc code blocks found").hasSizeGreaterThanOrEqualTo(4);
        Path src = dir.resolve("src/snippets");
        Files.createDirectories(src);
        List<String> files = new ArrayList<>();
        for (int k = 0; k < snippets.size(); k++) {
            StringBuilder java = new StringBuilder("package snippets;\n");
            for (String i : IMPORTS) {
                java.append("import ").append(i).append(";\n");
            }
            String body = snippets.get(k)[1].replace("Path.of(\"", "dir.resolve(\"");
            java.append("/** From ").append(snippets.get(k)[0]).append(". */\npublic final class Snippet").append(k)
                    .append(" {\n    public static void run(").append(PARAMETERS).append(") throws Exception {\n").append(body)
                    .append("    }\n}\n");
            Path f = src.resolve("Snippet" + k + ".java");
            Files.writeString(f, java, StandardCharsets.UTF_8);
            files.add(f.toString());
        }
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes);
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                "-proc:none", "-Xlint:none", "-nowarn"));
        args.addAll(files);
        java.io.ByteArrayOutputStream diagnostics = new java.io.ByteArrayOutputStream();
        int rc = javac.run(null, diagnostics, diagnostics, args.toArray(String[]::new));
        assertThat(rc).as("the javadoc snippets compile:\n" + diagnostics.toString(StandardCharsets.UTF_8)).isZero();

        // inputs: a small generated problem, its size and class set declared public
        SyntheticShift.Problem p = SyntheticShift.generate(new SyntheticShift.Config(4, 3, 200, 200, 4.0, 2.0, 1.0), 3);
        PublicFacts declared = PublicFacts.parse(List.of("size", "classes"), "test");
        Dataset source = p.source().withPublicFacts(declared);
        Dataset evaluation = p.target().withPublicFacts(declared);
        Dataset target = evaluation.withoutLabels();
        Path runDir = dir.resolve("run");
        Files.createDirectories(runDir);
        try (URLClassLoader cl = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            for (int k = 0; k < snippets.size(); k++) {
                Method run = null;
                for (Method candidate : cl.loadClass("snippets.Snippet" + k).getMethods()) {
                    if (candidate.getName().equals("run")) {
                        run = candidate;
                    }
                }
                Path own = Files.createDirectories(runDir.resolve("snippet" + k)); // each its own files (ledgers)
                try {
                    run.invoke(null, own, source.featureRows(), evaluation.featureRows(), source.classCodes(),
                            source.featureRows(), source.classCodes(), evaluation.featureRows(), source, target, evaluation);
                } catch (InvocationTargetException e) {
                    throw new AssertionError("the snippet of " + snippets.get(k)[0] + " fails when run: " + e.getCause(), e.getCause());
                }
            }
        }
    }
}
