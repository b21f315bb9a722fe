package org.privadapt.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each file to one concern (issue 46's goal): no main source file of any module over {@value #MAX_LINES} lines. A scan
 * of every module's src/main/java beside this one.
 */
class SourceFileSizeTest {
    static final int MAX_LINES = 500;

    @Test
    void noMainSourceFileIsOverTheLimit() throws IOException {
        Path root = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
        List<Path> mains = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path m : modules.filter(p -> Files.isDirectory(p.resolve("src/main/java"))).toList()) {
                try (Stream<Path> s = Files.walk(m.resolve("src/main/java"))) {
                    mains.addAll(s.filter(p -> p.toString().endsWith(".java")).toList());
                }
            }
        }
        assertThat(mains).as("main sources under %s", root).hasSizeGreaterThan(100);
        List<String> over = new ArrayList<>();
        for (Path f : mains) {
            long lines;
            try (Stream<String> l = Files.lines(f)) {
                lines = l.count();
            }
            if (lines > MAX_LINES) {
                over.add(root.relativize(f) + " (" + lines + " lines)");
            }
        }
        assertThat(over).as("split along their concerns").isEmpty();
    }
}
