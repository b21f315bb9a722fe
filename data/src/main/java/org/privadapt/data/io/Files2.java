package org.privadapt.data.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.privadapt.data.DataException;

/** File helpers shared by the loaders: existence checks that produce one-line errors, and SHA-256. */
public final class Files2 {
    private Files2() {
    }

    /**
     * Reads the whole file.
     *
     * @throws DataException if it is missing, a directory, or unreadable
     */
    public static byte[] readAll(Path file) throws DataException {
        requireReadable(file);
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new DataException(file, null, "cannot read file: " + e.getMessage(), e);
        }
    }

    public static void requireReadable(Path file) throws DataException {
        if (file == null) {
            throw new DataException((String) null, null, "no file given");
        }
        if (!Files.exists(file)) {
            throw new DataException(file, null, "no such file");
        }
        if (Files.isDirectory(file)) {
            throw new DataException(file, null, "is a directory, not a data file");
        }
        if (!Files.isReadable(file)) {
            throw new DataException(file, null, "file is not readable (permissions)");
        }
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /** SHA-256 of a file's content, streamed. */
    public static String sha256(Path file) throws DataException {
        requireReadable(file);
        try (var in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            int r;
            while ((r = in.read(buf)) > 0) {
                md.update(buf, 0, r);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            throw new DataException(file, null, "cannot read file: " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
