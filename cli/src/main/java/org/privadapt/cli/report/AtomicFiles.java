package org.privadapt.cli.report;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes a set of output files all or nothing (as far as the file system allows): every file is first written
 * and flushed to a temporary sibling, and only when all of them exist are they renamed into place (atomically
 * where the file system supports it). A failure before the renames leaves no output and no temporaries.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    public static void writeAll(Map<Path, byte[]> files) throws IOException {
        Map<Path, Path> temps = new LinkedHashMap<>();
        try {
            for (Map.Entry<Path, byte[]> e : files.entrySet()) {
                Path target = e.getKey().toAbsolutePath();
                Path dir = target.getParent();
                Files.createDirectories(dir);
                Path tmp = createSibling(dir, target);
                temps.put(target, tmp);
                try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE,
                        java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
                    java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(e.getValue());
                    while (buf.hasRemaining()) {
                        ch.write(buf);
                    }
                    ch.force(true);
                }
            }
            for (Map.Entry<Path, Path> e : temps.entrySet()) {
                try {
                    Files.move(e.getValue(), e.getKey(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException ex) {
                    Files.move(e.getValue(), e.getKey(), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } finally {
            for (Path tmp : temps.values()) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    /**
     * A new empty temporary file beside {@code target}. Its permissions are those a plain file creation gets (the
     * process's umask decides, as for any other tool's output), or, when {@code target} already exists, the existing
     * file's: {@link Files#createTempFile} would make every output owner-only (0600) instead.
     */
    private static Path createSibling(Path dir, Path target) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path tmp = dir.resolve("." + target.getFileName() + "." + Long.toUnsignedString(RANDOM.nextLong(), 36) + ".tmp");
            try {
                Files.createFile(tmp);
            } catch (FileAlreadyExistsException ex) {
                if (attempt < 100) {
                    continue;
                }
                throw ex;
            }
            if (Files.exists(target) && Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
                Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(target));
            }
            return tmp;
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    public static void write(Path file, byte[] content) throws IOException {
        writeAll(Map.of(file, content));
    }
}
