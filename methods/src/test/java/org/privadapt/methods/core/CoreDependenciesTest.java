package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The bottom of the methods module: {@code org.privadapt.methods.core} must not refer to a method family (any other
 * package under {@code org.privadapt.methods}) nor to the facades built on it ({@code org.privadapt.da},
 * {@code org.privadapt.dp}), by import or by qualified name; the families reach the registry through
 * {@link MethodProvider}. A scan of the sources under src/main/java, comments and string literals left out.
 */
class CoreDependenciesTest {
    private static final Pattern UPWARD = Pattern.compile("\\borg\\.privadapt\\.(?:methods\\.(?!core\\b)[A-Za-z_]\\w*|da\\b|dp\\b)");
    private static final Pattern COMMENT_OR_STRING = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"\"\"(?:.|\\n)*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\\\n])*'", Pattern.DOTALL);

    @Test
    void coreRefersToNoFamilyPackage() throws IOException {
        Path core = Path.of(System.getProperty("basedir", ".")).resolve("src/main/java/org/privadapt/methods/core");
        assertThat(core).isDirectory();
        List<Path> files;
        try (Stream<Path> s = Files.walk(core)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThan(10);
        List<String> found = new ArrayList<>();
        for (Path f : files) {
            for (String hit : upwardReferences(Files.readString(f))) {
                found.add(core.relativize(f) + ": " + hit);
            }
        }
        assertThat(found).as("references from org.privadapt.methods.core to packages built on it").isEmpty();
    }

    @Test
    void theScanSeesImportsAndQualifiedNamesButNotCommentsOrStrings() {
        String source = """
                package org.privadapt.methods.core;

                import org.privadapt.methods.core.AdaptationMethod;
                import org.privadapt.methods.prima.PrimaMethod;
                import static org.privadapt.methods.bassily.SupervisedBaselines.targetOnly;
                /** See {@link org.privadapt.methods.coral.CoralMethod}. */
                class X { // org.privadapt.methods.sa
                    Object o = new org.privadapt.methods.gmmuda.GmmUdaMethod(null);
                    org.privadapt.dp.PrivateClassifier c;
                    String s = "org.privadapt.methods.pate";
                    org.privadapt.methods.core.Methods m;
                    org.privadapt.methods.coreutil.Y y;
                }
                """;
        assertThat(upwardReferences(source)).containsExactly("line 4: org.privadapt.methods.prima",
                "line 5: org.privadapt.methods.bassily", "line 8: org.privadapt.methods.gmmuda", "line 9: org.privadapt.dp",
                "line 12: org.privadapt.methods.coreutil");
    }

    /** The upward references in a source file, as "line n: package", comments and string literals blanked out. */
    static List<String> upwardReferences(String source) {
        StringBuilder code = new StringBuilder(source.length());
        Matcher skip = COMMENT_OR_STRING.matcher(source);
        int at = 0;
        while (skip.find()) {
            code.append(source, at, skip.start());
            // keep the line breaks so that line numbers still match
            code.append(skip.group().replaceAll("[^\\n]", " "));
            at = skip.end();
        }
        code.append(source.substring(at));
        List<String> out = new ArrayList<>();
        String[] lines = code.toString().split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher m = UPWARD.matcher(lines[i]);
            while (m.find()) {
                out.add("line " + (i + 1) + ": " + m.group());
            }
        }
        return out;
    }
}
