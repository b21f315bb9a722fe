package org.privadapt.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private String[] listing() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toArray(String[]::new);
        }
    }

    @Test
    void allFilesAppearWithTheirContentAndNoTemporaryIsLeft() throws IOException {
        Map<Path, byte[]> files = new LinkedHashMap<>();
        files.put(dir.resolve("a.json"), bytes("{\"a\":1}"));
        files.put(dir.resolve("b.csv"), bytes("x\n1\n"));
        AtomicFiles.writeAll(files);
        assertThat(listing()).containsExactly("a.json", "b.csv");
        assertThat(Files.readString(dir.resolve("b.csv"))).isEqualTo("x\n1\n");
    }

    @Test
    void whenOneFileCannotBeWrittenNoneIsAndNoTemporaryIsLeft() throws IOException {
        Files.writeString(dir.resolve("blocker"), "a file where a directory is needed");
        Map<Path, byte[]> files = new LinkedHashMap<>();
        files.put(dir.resolve("first.json"), bytes("{}"));
        files.put(dir.resolve("blocker").resolve("second.json"), bytes("{}"));
        assertThatThrownBy(() -> AtomicFiles.writeAll(files)).isInstanceOf(IOException.class);
        assertThat(listing()).containsExactly("blocker");
    }

    @Test
    void aNewFileGetsTheUsualPermissionsAndAReplacedFileKeepsItsOwn() throws IOException {
        assumeTrue(Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class),
                "POSIX permissions not supported by this file system");
        Path plain = Files.createFile(dir.resolve("plain")); // what any tool's new file gets under this umask
        Path out = dir.resolve("report.json");
        AtomicFiles.write(out, bytes("1"));
        assertThat(Files.getPosixFilePermissions(out)).isEqualTo(Files.getPosixFilePermissions(plain));

        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rw-r-----"));
        AtomicFiles.write(out, bytes("2"));
        assertThat(Files.readString(out)).isEqualTo("2");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rw-r-----");

        // a read-only file in a writable directory is replaced (as before, and as mv would): its mode is applied to
        // the new file only after the content is written
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("r--r--r--"));
        AtomicFiles.write(out, bytes("3"));
        assertThat(Files.readString(out)).isEqualTo("3");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("r--r--r--");
        assertThat(listing()).containsExactly("plain", "report.json");
    }

    @Test
    void aSymbolicLinkIsWrittenThroughNotReplaced() throws IOException {
        Path real = dir.resolve("real.json");
        Files.writeString(real, "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), real);
        AtomicFiles.write(link, bytes("new"));
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(real)).isEqualTo("new");
        assertThat(listing()).containsExactly("link.json", "real.json");
    }
}
