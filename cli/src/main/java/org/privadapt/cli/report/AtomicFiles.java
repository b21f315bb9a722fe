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
import org.privadapt.privacy.RunJournal;

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
                if (Files.isSymbolicLink(target)) {
                    target = target.toRealPath(); // write where the link points, as a shell redirection would
                }
                if (Files.exists(target) && !Files.isRegularFile(target)) {
                    throw new IOException(target + " is not a regular file (a device, FIFO or socket): refusing to replace it");
                }
                Path dir = target.getParent();
                Files.createDirectories(dir);
                Path tmp = createSibling(dir, target);
                temps.put(target, tmp);
                RunJournal.temporary(tmp);
                try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE,
                        java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
                    java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(e.getValue());
                    while (buf.hasRemaining()) {
                        ch.write(buf);
                    }
                    ch.force(true);
                }
                keepPermissionsOf(target, tmp); // after writing: a read-only original must not stop the write
            }
            // the renames as one step: a stop (Ctrl-C) waits for all of them, or keeps them all from starting
            try (RunJournal.Step step = RunJournal.enter("output")) {
                for (Map.Entry<Path, Path> e : temps.entrySet()) {
                    try {
                        Files.move(e.getValue(), e.getKey(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    } catch (AtomicMoveNotSupportedException ex) {
                        Files.move(e.getValue(), e.getKey(), StandardCopyOption.REPLACE_EXISTING);
                    }
                    RunJournal.wrote(e.getKey());
                }
            }
        } finally {
            for (Path tmp : temps.values()) {
                Files.deleteIfExists(tmp);
                RunJournal.temporaryDone(tmp);
            }
        }
    }

    /**
     * A new empty temporary file beside {@code target}, with the permissions a plain file creation gets (the process's
     * umask decides, as for any other tool's output): {@link Files#createTempFile} would make every output owner-only
     * (0600) instead.
     */
    private static Path createSibling(Path dir, Path target) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path tmp = dir.resolve("." + target.getFileName() + "." + Long.toUnsignedString(RANDOM.nextLong(), 36) + ".tmp");
            try {
                return Files.createFile(tmp);
            } catch (FileAlreadyExistsException ex) {
                if (attempt >= 100) {
                    throw ex;
                }
            }
        }
    }

    /**
     * Gives {@code tmp} the POSIX permissions of an existing {@code target}, so that replacing a file keeps its mode.
     * Best effort: where the file system has no POSIX permissions, refuses to change them, or the target vanished,
     * the new file keeps the umask's.
     */
    private static void keepPermissionsOf(Path target, Path tmp) {
        PosixFileAttributeView view = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
        if (view == null || !Files.exists(target)) {
            return;
        }
        try {
            view.setPermissions(Files.getPosixFilePermissions(target));
        } catch (IOException | UnsupportedOperationException | SecurityException ignored) {
            // the umask's permissions stand
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    public static void write(Path file, byte[] content) throws IOException {
        writeAll(Map.of(file, content));
    }
}
