package org.privadapt.encoders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ONNX Runtime's libraries come from the per-user cache, and a JVM that loaded the encoder leaves nothing in the
 * temporary directory (before, every run left an empty {@code onnxruntime-java*} directory there).
 */
class OrtNativesTest {

    /** Loads the encoder, encodes one sentence and exits normally (run in a child JVM by the test below). */
    public static void main(String[] args) {
        new MiniLm().encode(List.of("no acute cardiopulmonary abnormality"), k -> { });
        System.out.println("native path " + System.getProperty(OrtNatives.PROPERTY));
    }

    @Test
    void aRunThatLoadsTheEncoderLeavesNothingInTheTemporaryDirectory(@TempDir Path tmp) throws IOException, InterruptedException {
        assumeTrue(MiniLm.available(), "skipped: the all-MiniLM-L6-v2 model files are not on the test classpath");
        assumeTrue(OrtNatives.platform() != null, "skipped: ONNX Runtime ships no libraries for this platform");
        Path jvmTmp = Files.createDirectories(tmp.resolve("tmp"));
        Path cache = Files.createDirectories(tmp.resolve("cache"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Djava.io.tmpdir=" + jvmTmp, "-Dprivadapt.blas=none",
                "-cp", System.getProperty("java.class.path"), OrtNativesTest.class.getName());
        pb.environment().put("PRIVADAPT_CACHE", cache.toString());
        pb.redirectErrorStream(true);
        for (int run = 0; run < 2; run++) { // the first run unpacks into the cache, the second opens it
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes());
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assumeTrue(p.exitValue() == 0 || !out.contains("UnsatisfiedLinkError"), "skipped: the libraries do not load here: " + out);
            assertThat(p.exitValue()).as(out).isZero();
            try (Stream<Path> left = Files.list(jvmTmp)) {
                assertThat(left.map(f -> f.getFileName().toString()).filter(f -> f.startsWith("onnxruntime"))).isEmpty();
            }
            assertThat(out).contains("native path " + cache.resolve("onnxruntime-" + OrtNatives.platform()));
        }
        try (Stream<Path> dirs = Files.list(cache)) {
            List<Path> unpacked = dirs.filter(d -> d.getFileName().toString().startsWith("onnxruntime-")).toList();
            assertThat(unpacked).hasSize(1);
            assertThat(unpacked.get(0).resolve("COMPLETE")).isRegularFile();
            assertThat(unpacked.get(0).resolve(System.mapLibraryName("onnxruntime4j_jni"))).isRegularFile();
        }
    }
}
