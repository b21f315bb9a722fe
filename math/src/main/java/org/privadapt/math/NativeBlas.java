package org.privadapt.math;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Decides, once per process and before netlib's JNI stubs load, which native BLAS/LAPACK netlib will open,
 * so that exactly one OpenBLAS build serves both BLAS and LAPACK and no failed {@code dlopen} is printed.
 *
 * <p>Order ({@code auto}): the system's {@code libblas.so.3} and {@code liblapack.so.3} when both are found in
 * the dynamic linker's directories; otherwise the OpenBLAS build shipped as the Maven artifact
 * {@code org.bytedeco:openblas} (its {@code libopenblas.so.0} holds BLAS and LAPACK, and with its
 * {@code libgfortran}/{@code libquadmath} it is unpacked once into a per-user cache directory and handed to
 * netlib through {@code dev.ludovic.netlib.{blas,lapack}.nativeLibPath}); otherwise none, and netlib is told
 * not to try ({@code allowNative=false}), so the caller falls back to pure Java quietly.
 *
 * <p>Override with the system property {@code privadapt.blas} or the environment variable {@code PRIVADAPT_BLAS}:
 * {@code auto}, {@code system}, {@code bundled} (skip the system search: how CI proves the bundled path) or
 * {@code none}. Explicit netlib properties ({@code dev.ludovic.netlib.blas.nativeLib[Path]}) set by the user
 * are respected as they are. The cache directory is {@link NativeCache}'s: {@code $PRIVADAPT_CACHE}, else
 * {@code $XDG_CACHE_HOME/privadapt}, else {@code ~/.cache/privadapt}, else the temporary directory.
 */
public final class NativeBlas {
    /** Where the native library netlib will open comes from. */
    public enum Source { SYSTEM, BUNDLED, USER, NONE }

    /** The decision and the reason for it, as reported by {@code privadapt --version} and in report JSON. */
    public record Choice(Source source, String library, String reason) {
        public String describe() {
            switch (source) {
                case SYSTEM: return "system " + library + ", " + reason;
                case BUNDLED: return "bundled " + library + ", used because " + reason;
                case USER: return library + ", " + reason;
                default: return "none loaded: " + reason;
            }
        }
    }

    private static final String BLAS_PREFIX = "dev.ludovic.netlib.blas.";
    private static final String LAPACK_PREFIX = "dev.ludovic.netlib.lapack.";
    /** Loaded in this order before libopenblas, whose RUNPATH does not cover libgfortran's own dependencies. */
    private static final String[] SUPPORT_LIBS = {"libquadmath.so.0", "libgfortran.so.5"};
    private static final String OPENBLAS = "libopenblas.so.0";

    private static volatile Choice choice;

    private NativeBlas() {
    }

    /** Makes (once) and returns the decision; sets netlib's system properties accordingly. */
    public static Choice prepare() {
        Choice c = choice;
        if (c == null) {
            synchronized (NativeBlas.class) {
                c = choice;
                if (c == null) {
                    c = decide();
                    choice = c;
                }
            }
        }
        return c;
    }

    private static Choice decide() {
        String user = firstNonBlank(System.getProperty(BLAS_PREFIX + "nativeLibPath"),
                System.getProperty(BLAS_PREFIX + "nativeLib"));
        if (user != null) {
            return new Choice(Source.USER, user, "set by " + BLAS_PREFIX + "nativeLib[Path]");
        }
        String mode = firstNonBlank(System.getProperty("privadapt.blas"), System.getenv("PRIVADAPT_BLAS"));
        mode = mode == null ? "auto" : mode.trim().toLowerCase(Locale.ROOT);
        switch (mode) {
            case "none":
                return none("native BLAS switched off by privadapt.blas=none");
            case "system": {
                Choice s = system();
                return s != null ? s : none("privadapt.blas=system but no libblas.so.3 and liblapack.so.3 in "
                        + libraryDirs());
            }
            case "bundled":
                return bundled("privadapt.blas=bundled: the system's libraries are not searched");
            case "auto": {
                Choice s = system();
                return s != null ? s : bundled("no system libblas.so.3 and liblapack.so.3 found");
            }
            default:
                throw new IllegalArgumentException("unknown privadapt.blas '" + mode
                        + "' (expected auto, system, bundled or none)");
        }
    }

    private static Choice system() {
        Path blas = find("libblas.so.3");
        Path lapack = find("liblapack.so.3");
        if (blas == null || lapack == null) {
            return null;
        }
        // netlib opens them by name, through the dynamic linker, as it would without privadapt
        return new Choice(Source.SYSTEM, realPath(blas) + " + " + realPath(lapack),
                "found in the dynamic linker's directories");
    }

    private static Choice bundled(String why) {
        String platform = platform();
        if (platform == null) {
            return none(why + "; no bundled OpenBLAS for " + System.getProperty("os.name") + "/"
                    + System.getProperty("os.arch"));
        }
        String base = "org/bytedeco/openblas/" + platform + "/";
        ClassLoader cl = NativeBlas.class.getClassLoader();
        if (cl.getResource(base + OPENBLAS) == null) {
            return none(why + "; org.bytedeco:openblas for " + platform + " is not on the class path");
        }
        try {
            String version = bundledVersion(cl);
            Path dir = unpack(cl, base, "openblas-" + version + "-" + platform);
            for (String lib : SUPPORT_LIBS) {
                System.load(dir.resolve(lib).toString());
            }
            String lib = dir.resolve(OPENBLAS).toString();
            System.setProperty(BLAS_PREFIX + "nativeLibPath", lib);
            System.setProperty(LAPACK_PREFIX + "nativeLibPath", lib);
            return new Choice(Source.BUNDLED, "OpenBLAS " + version + " (org.bytedeco:openblas) at " + lib, why);
        } catch (IOException | RuntimeException | LinkageError e) {
            return none(why + "; the bundled OpenBLAS could not be loaded: " + e.getMessage());
        }
    }

    private static Choice none(String why) {
        System.setProperty(BLAS_PREFIX + "allowNative", "false");
        System.setProperty(LAPACK_PREFIX + "allowNative", "false");
        return new Choice(Source.NONE, null, why);
    }

    // ---------------------------------------------------------------- system search

    /** The directories searched for the system's libraries: LD_LIBRARY_PATH, then the usual ones. */
    static List<Path> libraryDirs() {
        List<Path> dirs = new ArrayList<>();
        String override = System.getProperty("privadapt.blas.systemDirs");
        if (override != null) {
            for (String d : override.split(":")) {
                if (!d.isBlank()) {
                    dirs.add(Paths.get(d));
                }
            }
            return dirs;
        }
        String ld = System.getenv("LD_LIBRARY_PATH");
        if (ld != null) {
            for (String d : ld.split(":")) {
                if (!d.isBlank()) {
                    dirs.add(Paths.get(d));
                }
            }
        }
        String multiarch = "amd64".equals(arch()) ? "x86_64-linux-gnu" : "aarch64".equals(arch()) ? "aarch64-linux-gnu" : null;
        for (String root : new String[]{"/usr/local/lib", "/usr/lib", "/lib"}) {
            if (multiarch != null) {
                dirs.add(Paths.get(root, multiarch));
            }
            dirs.add(Paths.get(root));
        }
        dirs.add(Paths.get("/usr/lib64"));
        dirs.add(Paths.get("/lib64"));
        return dirs;
    }

    private static Path find(String name) {
        if (!isLinux()) {
            return null;
        }
        for (Path d : libraryDirs()) {
            Path p = d.resolve(name);
            if (Files.isReadable(p)) {
                return p;
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- bundled library

    private static String platform() {
        if (!isLinux()) {
            return null;
        }
        switch (arch()) {
            case "amd64":
                return "linux-x86_64";
            case "aarch64":
                return "linux-arm64";
            default:
                return null;
        }
    }

    private static boolean isLinux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
    }

    private static String arch() {
        String a = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return "x86_64".equals(a) ? "amd64" : a;
    }

    private static String bundledVersion(ClassLoader cl) {
        try (InputStream in = cl.getResourceAsStream("META-INF/maven/org.bytedeco/openblas/pom.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null) {
                    return v;
                }
            }
        } catch (IOException e) {
            // fall through
        }
        return "unknown";
    }

    /** Unpacks the libraries into the cache ({@link NativeCache#unpack}), named after the artifact's version and platform. */
    private static Path unpack(ClassLoader cl, String base, String id) throws IOException {
        List<String> names = new ArrayList<>(List.of(SUPPORT_LIBS));
        names.add(OPENBLAS);
        return NativeCache.unpack(cl, base, names, id);
    }

    private static String realPath(Path p) {
        try {
            return p.toRealPath().toString();
        } catch (IOException e) {
            return p.toString();
        }
    }

    private static String firstNonBlank(String a, String b) {
        if (a != null && !a.isBlank()) {
            return a;
        }
        return b != null && !b.isBlank() ? b : null;
    }
}
