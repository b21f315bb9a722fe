package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core modules (math, privacy, data, models, methods) do not depend on Spark: none of their poms names a Spark
 * artifact and none of their sources (main or test) mentions {@code org.apache.spark}, so the in-process default needs
 * no Spark on the classpath. Only this module (and what is built on it) may.
 */
class SparkFreeCoreModulesTest {
    static final List<String> CORE = List.of("math", "privacy", "data", "models", "methods");

    @Test
    void noCoreModuleNamesSpark() throws IOException {
        Path root = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
        List<String> found = new ArrayList<>();
        int files = 0;
        for (String module : CORE) {
            Path pom = root.resolve(module).resolve("pom.xml");
            assertThat(pom).as(module).isRegularFile();
            if (Files.readString(pom).contains("org.apache.spark")) {
                found.add(module + "/pom.xml");
            }
            try (Stream<Path> s = Files.walk(root.resolve(module).resolve("src"))) {
                for (Path f : s.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
                    if (Files.readString(f).contains("org.apache.spark")) {
                        found.add(root.relativize(f).toString());
                    }
                }
            }
        }
        assertThat(files).as("sources scanned").isGreaterThan(100);
        assertThat(found).as("core files naming org.apache.spark").isEmpty();
        // and the parent's managed dependencies, which every module inherits, hold no Spark artifact either
        String parent = Files.readString(root.resolve("pom.xml"));
        assertThat(parent).doesNotContain("<groupId>org.apache.spark</groupId>");
    }
}
