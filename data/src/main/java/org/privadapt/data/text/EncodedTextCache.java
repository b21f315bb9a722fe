package org.privadapt.data.text;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * A {@link TextEncoder}'s features cached on disk by content: the key is SHA-256 of the encoder's hash and the texts
 * encoded (each text's UTF-8 bytes with its length), so the same column of the same input file encoded by the same
 * model is read back instead of re-encoded (a bench's every run and method reads it once), and any change to the
 * file's text or to the model misses. The directory is {@code $PRIVADAPT_CACHE/encoded} (the system property
 * {@code privadapt.cache} first, for tests), else
 * {@code ~/.cache/privadapt/encoded}; each entry is one file {@code NAME-KEY.f64} (magic, n, d, then n x d float64
 * row-major), written to a temporary file and moved into place, so a run stopped midway leaves no partial entry.
 * The features are public functions of the texts, but the texts are the data holder's: the cache is as private as
 * the input file and stays on the machine that read it.
 */
public final class EncodedTextCache {
    /** Environment variable naming the cache's root directory. */
    public static final String ENV = "PRIVADAPT_CACHE";
    private static final int MAGIC = 0x50414631; // "PAF1"

    private final Path dir;

    public EncodedTextCache(Path dir) {
        this.dir = dir;
    }

    /** The default cache: {@code $PRIVADAPT_CACHE/encoded}, else {@code ~/.cache/privadapt/encoded}. */
    public static EncodedTextCache standard() {
        String env = System.getProperty("privadapt.cache", System.getenv(ENV));
        Path root = env != null && !env.isBlank() ? Path.of(env)
                : Path.of(System.getProperty("user.home"), ".cache", "privadapt");
        return new EncodedTextCache(root.resolve("encoded"));
    }

    public Path dir() {
        return dir;
    }

    /** Where the features of these texts under this encoder are kept. */
    public Path entry(TextEncoder encoder, List<String> texts) {
        return dir.resolve(encoder.name() + "-" + key(encoder.hash(), texts) + ".f64");
    }

    /**
     * The texts' features: read from the cache when present (with {@code done} told the total at once), else encoded
     * and stored.
     */
    public double[][] encode(TextEncoder encoder, List<String> texts, IntConsumer done) {
        Path f = entry(encoder, texts);
        if (Files.isRegularFile(f)) {
            double[][] x = read(f, texts.size(), encoder.dimension());
            if (x != null) {
                done.accept(texts.size());
                return x;
            }
        }
        double[][] x = encoder.encode(texts, done);
        try {
            write(f, x, encoder.dimension());
        } catch (IOException e) {
            // a read-only or full disk costs the next run an encoding, not this one its result
            System.err.println("privadapt: could not cache the encoded texts in " + dir + " (" + e.getMessage() + ")");
        }
        return x;
    }

    static String key(String modelHash, List<String> texts) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(modelHash.getBytes(StandardCharsets.UTF_8));
            for (String t : texts) {
                byte[] b = t.getBytes(StandardCharsets.UTF_8);
                md.update(new byte[] {(byte) (b.length >>> 24), (byte) (b.length >>> 16), (byte) (b.length >>> 8), (byte) b.length});
                md.update(b);
            }
            return HexFormat.of().formatHex(md.digest()).substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static double[][] read(Path f, int n, int d) {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(f), 1 << 16))) {
            if (in.readInt() != MAGIC || in.readInt() != n || in.readInt() != d) {
                return null;
            }
            double[][] x = new double[n][d];
            for (double[] row : x) {
                for (int j = 0; j < d; j++) {
                    row[j] = in.readDouble();
                }
            }
            return x;
        } catch (IOException e) {
            return null; // unreadable or truncated: encode again
        }
    }

    private void write(Path f, double[][] x, int d) throws IOException {
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".encoding-", ".tmp");
        try {
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16))) {
                out.writeInt(MAGIC);
                out.writeInt(x.length);
                out.writeInt(d);
                for (double[] row : x) {
                    for (int j = 0; j < d; j++) {
                        out.writeDouble(row[j]);
                    }
                }
            }
            Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | UncheckedIOException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }
}
