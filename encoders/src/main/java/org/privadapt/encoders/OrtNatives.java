package org.privadapt.encoders;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.privadapt.math.NativeCache;

/**
 * ONNX Runtime's native libraries opened from the per-user cache ({@link NativeCache}) instead of a fresh temporary
 * directory per run. ONNX Runtime 1.20's loader unpacks them into {@code /tmp/onnxruntime-java*} and asks the JVM to
 * delete the directory at exit before its files, which fails, so every run that loaded the encoder left an empty
 * directory behind. Here they are unpacked once, under a name carrying the platform and a hash of the JNI binding
 * (which changes with every ONNX Runtime release), and {@code onnxruntime.native.path} points the loader there; its
 * own temporary directory then stays empty and is removed at exit.
 *
 * <p>A user's own {@code onnxruntime.native.path} is kept as given; a platform the jar carries no libraries for, or no
 * writable cache, leaves ONNX Runtime's own loading as it is.
 */
final class OrtNatives {
    static final String PROPERTY = "onnxruntime.native.path";
    private static final String ROOT = "ai/onnxruntime/native/";
    private static boolean prepared;

    private OrtNatives() {
    }

    /** Points ONNX Runtime at the cached libraries (once per JVM, before its first use); returns the directory or null. */
    static synchronized String prepare() {
        if (prepared) {
            return System.getProperty(PROPERTY);
        }
        prepared = true;
        if (System.getProperty(PROPERTY) != null) {
            return System.getProperty(PROPERTY);
        }
        String platform = platform();
        ClassLoader cl = OrtNatives.class.getClassLoader();
        String base = ROOT + platform + "/";
        String jni = System.mapLibraryName("onnxruntime4j_jni");
        if (platform == null || cl.getResource(base + jni) == null) {
            return null;
        }
        List<String> names = Stream.of("onnxruntime", "onnxruntime4j_jni", "onnxruntime_providers_shared")
                .map(System::mapLibraryName).filter(n -> cl.getResource(base + n) != null).toList();
        try {
            Path dir = NativeCache.unpack(cl, base, names, "onnxruntime-" + platform + "-" + hash(cl, base + jni));
            System.setProperty(PROPERTY, dir.toString());
            return dir.toString();
        } catch (IOException e) {
            return null; // ONNX Runtime unpacks them itself, as it would without this class
        }
    }

    /** ONNX Runtime's name for this platform's directory of libraries, or null when it has none. */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String o = os.contains("linux") ? "linux" : os.contains("mac") || os.contains("darwin") ? "osx" : os.startsWith("win") ? "win" : null;
        String a = arch.equals("amd64") || arch.equals("x86_64") ? "x64" : arch.equals("aarch64") || arch.equals("arm64") ? "aarch64" : null;
        return o == null || a == null ? null : o + "-" + a;
    }

    private static String hash(ClassLoader cl, String resource) throws IOException {
        try (InputStream in = cl.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("missing resource " + resource);
            }
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(in.readAllBytes());
            return HexFormat.of().formatHex(md.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
