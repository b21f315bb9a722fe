package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.OutputOptions;
import org.privadapt.cli.report.Json;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.accounting.PrivacyAccountant;

/**
 * Time to compute epsilon for DP-SGD events of growing length with each accountant, and to calibrate a noise
 * multiplier: median of 5 calls after 2 warm-up calls, each on a fresh accountant (no caching across calls).
 */
final class AccountingBench {
    private final PrintWriter out;
    private final OutputOptions output;

    AccountingBench(PrintWriter out, OutputOptions output) {
        this.out = out;
        this.output = output;
    }

    record Cell(String accountant, String operation, long steps, double medianMs, double value) {
    }

    int run() {
        List<Cell> cells = new ArrayList<>();
        for (String name : Accountants.names()) {
            for (long steps : new long[] {1_000, 10_000, 100_000}) {
                double[] v = new double[1];
                double ms = time(() -> {
                    PrivacyAccountant a = Accountants.byName(name, NeighbouringRelation.ADD_OR_REMOVE_ONE);
                    v[0] = a.epsilon(NoiseCalibration.dpSgdEvent(1.1, 0.01, steps), 1e-5);
                });
                cells.add(new Cell(name, "epsilon", steps, ms, v[0]));
            }
            double[] s = new double[1];
            double ms = time(() -> {
                PrivacyAccountant a = Accountants.byName(name, NeighbouringRelation.ADD_OR_REMOVE_ONE);
                s[0] = NoiseCalibration.noiseMultiplier(a, 2.0, 1e-5, 0.01, 10_000);
            });
            cells.add(new Cell(name, "calibrate noise multiplier (eps 2)", 10_000, ms, s[0]));
        }
        StringBuilder md = new StringBuilder("DP-SGD event: q = 0.01, noise multiplier 1.1, delta = 1e-5. Median of 5 calls "
                + "after 2 warm-up calls, fresh accountant each call.\n\n| accountant | operation | steps | time (ms) | result |\n|---|---|---:|---:|---:|\n");
        for (Cell c : cells) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %d | %.2f | %.6g |%n", c.accountant(), c.operation(), c.steps(),
                    c.medianMs(), c.value()));
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("command", "bench accounting");
        report.put("cells", cells);
        output.write(report, md.toString(), null, null);
        if (output.json) {
            out.println(Json.write(report));
        } else {
            out.print(md);
        }
        return ExitCodes.OK;
    }

    private static double time(Runnable r) {
        r.run();
        r.run();
        double[] ms = new double[5];
        for (int i = 0; i < ms.length; i++) {
            long t0 = System.nanoTime();
            r.run();
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        return ms[2];
    }
}
