package org.privadapt.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs every example program (CI compiles and runs them through this test) and checks what it prints. */
class ExamplesTest {
    @TempDir
    Path dir;

    interface Main {
        void run() throws Exception;
    }

    static String capture(Main m) throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            m.run();
        } finally {
            System.setOut(old);
        }
        return buf.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    static double percent(String out, String label) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(label + " ([0-9.]+) %").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void coralOnArraysBeatsSourceOnly() throws Exception {
        String out = capture(() -> CoralOnArrays.main(new String[0]));
        assertThat(percent(out, "CORAL")).isGreaterThan(percent(out, "source-only") + 10);
    }

    @Test
    void dpSgdWithLedgerSpendsWithinItsBudget() throws Exception {
        Path ledger = dir.resolve("hospital.ledger");
        String out = capture(() -> DpSgdWithLedger.main(new String[] {ledger.toString()}));
        assertThat(out).contains("1 release(s)");
        assertThat(percent(out, "accuracy")).isGreaterThan(80);
        double spent = Double.parseDouble(out.replaceAll("(?s).*spent epsilon ([0-9.]+).*", "$1"));
        assertThat(spent).isPositive().isLessThanOrEqualTo(1.0);
    }

    @Test
    void theReadmeTourRunsAndSpendsWithinItsLedger() throws Exception {
        String out = capture(() -> JavaApiTour.main(new String[] {dir.toString()}));
        assertThat(out).contains("CORAL (not private) predicted 1500 target rows");
        double spent = Double.parseDouble(out.replaceAll("(?s).*DP-SGD source model: spent epsilon ([0-9.]+).*", "$1"));
        assertThat(spent).isPositive().isLessThanOrEqualTo(2.0);
        assertThat(percent(out, "dp-source-only target accuracy")).isGreaterThan(40); // 3 classes: chance is 33 %
        assertThat(out).contains("source ledger: 2 release(s)");
    }

    @Test
    void primaTwoPartyRunsThroughArtifacts() throws Exception {
        String out = capture(() -> PrimaTwoParty.main(new String[0]));
        assertThat(percent(out, "PRIMA target accuracy")).isGreaterThan(40); // 3 classes: chance is 33 %
        assertThat(out).contains("release.json").contains("model.json");
    }
}
