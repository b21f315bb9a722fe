package org.privadapt.math;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Native libraries shipped inside jars, unpacked once into a per-user cache directory and opened from there on every
 * later run (the bundled OpenBLAS of {@link NativeBlas}; ONNX Runtime's libraries for the encoders module). A library
 * loaded from a fresh temporary directory per run leaves that directory behind whenever the JVM cannot delete it
 * (ONNX Runtime 1.20's loader does, once per run); from the cache nothing is written after the first run.
 *
 * <p>The cache directory is {@code $PRIVADAPT_CACHE}, else {@code $XDG_CACHE_HOME/privadapt}, else
 * {@code ~/.cache/privadapt}, else the temporary directory; the first writable one is used.
 */
public final class NativeCache {
    private static final String COMPLETE = "COMPLETE";

    private NativeCache() {
    }

    /**
     * The directory {@code id} under the cache holding the resources {@code base + name} for every name, unpacked on
     * the first call. They are written to a private temporary directory first, with a completion marker last, and
     * moved into place atomically, so concurrent processes never open a half-written library; a directory without
     * its marker is never used. {@code id} must change whenever the resources do (a version, a platform, a hash).
     */
    public static Path unpack(ClassLoader cl, String base, List<String> names, String id) throws IOException {
        IOException last = null;
        for (Path root : roots()) {
            Path target = root.resolve(id);
            if (Files.isRegularFile(target.resolve(COMPLETE))) {
                return target;
            }
            try {
                Files.createDirectories(root);
                Path tmp = Files.createTempDirectory(root, id + ".tmp");
                try {
                    for (String name : names) {
                        try (InputStream in = cl.getResourceAsStream(base + name)) {
                            if (in == null) {
                                throw new IOException("missing resource " + base + name);
                            }
                            Files.copy(in, tmp.resolve(name));
                        }
                    }
                    Files.writeString(tmp.resolve(COMPLETE), id + "\n");
                    try {
                        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
                    } catch (FileAlreadyExistsException | DirectoryNotEmptyException | AtomicMoveNotSupportedException e) {
                        if (!Files.isRegularFile(target.resolve(COMPLETE))) {
                            throw e;
                        }
                    }
                } finally {
                    deleteTree(tmp);
                }
                return target;
            } catch (IOException e) {
                last = e;
            }
        }
        throw last != null ? last : new IOException("no writable cache directory");
    }

    /** The candidate cache roots, in order of preference. */
    static List<Path> roots() {
        List<Path> roots = new ArrayList<>();
        String own = System.getenv("PRIVADAPT_CACHE");
        if (own != null && !own.isBlank()) {
            roots.add(Paths.get(own));
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            roots.add(Paths.get(xdg, "privadapt"));
        }
        String home = System.getProperty("user.home");
        if (home != null && !home.isBlank() && !"?".equals(home)) {
            roots.add(Paths.get(home, ".cache", "privadapt"));
        }
        roots.add(Paths.get(System.getProperty("java.io.tmpdir"), "privadapt-" + System.getProperty("user.name", "user")));
        return roots;
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort: a leftover temporary directory does no harm
                }
            });
        } catch (IOException e) {
            // best effort
        }
    }
}
