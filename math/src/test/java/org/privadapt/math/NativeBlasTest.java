package org.privadapt.math;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native-library decision, each case in a fresh JVM (the decision is made once per process): with no system
 * BLAS the OpenBLAS shipped through Maven is unpacked and used, its products agree with pure Java, and nothing is
 * printed on standard error (no JNI dlopen noise); switched off, the fallback is silent too.
 */
class NativeBlasTest {
    @TempDir
    Path tmp;

    private record Child(String out, String err, int exit) {
    }

    private Child run(String... props) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.addAll(List.of(props));
        cmd.add(NativeBlasProbe.class.getName());
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("PRIVADAPT_BLAS");
        pb.environment().put("PRIVADAPT_CACHE", tmp.resolve("cache").toString());
        Path out = tmp.resolve("out.txt");
        Path err = tmp.resolve("err.txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        int exit = pb.start().waitFor();
        return new Child(Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8), exit);
    }

    @Test
    void withoutSystemBlasTheBundledOpenBlasIsUsedQuietly() throws Exception {
        // an empty search path hides whatever the machine has
        Child c = run("-Dprivadapt.blas.systemDirs=" + tmp.resolve("nothing-here"));
        assertThat(c.exit()).as(c.err()).isZero();
        assertThat(c.err()).isEmpty();
        assertThat(c.out()).contains("source=BUNDLED", "native=true", "OpenBLAS");
        double diff = Double.parseDouble(c.out().replaceAll("(?s).*maxdiff=(\\S+).*", "$1"));
        assertThat(diff).isLessThan(1e-12);
        assertThat(Files.exists(tmp.resolve("cache"))).isTrue();
        // a second process reuses the unpacked copy
        Child again = run("-Dprivadapt.blas=bundled");
        assertThat(again.out()).contains("source=BUNDLED", "native=true");
        assertThat(again.err()).isEmpty();
    }

    @Test
    void switchedOffTheFallbackIsPureJavaAndSilent() throws Exception {
        Child c = run("-Dprivadapt.blas=none");
        assertThat(c.exit()).as(c.err()).isZero();
        assertThat(c.err()).isEmpty();
        assertThat(c.out()).contains("source=NONE", "native=false", "switched off");
    }

    @Test
    void userNetlibSettingsAreRespected() throws Exception {
        Child c = run("-Ddev.ludovic.netlib.blas.nativeLib=libprivadapt-none.so",
                "-Ddev.ludovic.netlib.lapack.nativeLib=libprivadapt-none.so");
        assertThat(c.exit()).as(c.err()).isZero();
        assertThat(c.out()).contains("source=USER", "native=false");
    }

    @Test
    void inThisJvmBundledWhenCiAsksForIt() {
        // .ci/run sets PRIVADAPT_BLAS=bundled for the whole suite: then every test ran on the shipped OpenBLAS
        String mode = System.getenv("PRIVADAPT_BLAS");
        if ("bundled".equals(mode) && System.getProperty("privadapt.blas") == null) {
            assertThat(NativeBlas.prepare().source()).isEqualTo(NativeBlas.Source.BUNDLED);
            assertThat(LinAlg.backend().isNative()).isTrue();
        }
    }
}
