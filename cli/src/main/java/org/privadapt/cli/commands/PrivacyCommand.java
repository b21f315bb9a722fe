package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.Runs;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.report.Json;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.accounting.PrivacyAccountant;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.EventJson;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.mechanisms.GaussianCalibration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code privadapt privacy}: accounting tools. */
@Command(name = "privacy", mixinStandardHelpOptions = true,
        description = "Privacy accounting: epsilon of DP-SGD-like training, RDP curves, noise calibration, the Gaussian "
                + "mechanism, and a party's budget ledger.",
        subcommands = {PrivacyStatementCommand.class, PrivacyCommand.Epsilon.class, PrivacyCommand.Rdp.class,
            PrivacyCommand.Sigma.class, PrivacyCommand.Gaussian.class, PrivacyCommand.Ledger.class})
public final class PrivacyCommand implements java.util.concurrent.Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        // a command group without a subcommand is a usage error: the usage goes to standard error, exit 2
        spec.commandLine().usage(spec.commandLine().getErr());
        return org.privadapt.cli.ExitCodes.USAGE;
    }

    static void checkDelta(double delta) {
        if (!(delta > 0 && delta < 1)) {
            throw new UsageException("--delta must be in (0, 1), got " + delta);
        }
    }

    static void checkRate(double q) {
        if (!(q > 0 && q <= 1)) {
            throw new UsageException("--sample-rate must be in (0, 1], got " + q);
        }
    }

    static PrivacyAccountant accountant(String name, List<String> warnings) {
        if ("rdp".equals(name)) {
            return new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, RdpAccountant.DEFAULT_ORDERS, warnings::add);
        }
        try {
            return Accountants.byName(name, NeighbouringRelation.ADD_OR_REMOVE_ONE);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--accountant: " + e.getMessage(), e);
        }
    }

    static void printWarnings(CommandLine.Model.CommandSpec spec, List<String> warnings) {
        for (String w : warnings) {
            spec.commandLine().getErr().println("privadapt: warning: " + w);
        }
    }

    /** Options of the Poisson-subsampled Gaussian mechanism repeated for a number of steps. */
    static final class Training {
        @Option(names = "--sample-rate", required = true, paramLabel = "Q", description = "Poisson sampling probability q.")
        double q;

        @Option(names = "--steps", required = true, paramLabel = "T", description = "Number of steps.")
        long steps;

        void check() {
            checkRate(q);
            if (steps < 1) {
                throw new UsageException("--steps must be at least 1, got " + steps);
            }
        }
    }

    @Command(name = "epsilon", mixinStandardHelpOptions = true,
            description = "Epsilon of T steps of the Poisson-subsampled Gaussian mechanism (DP-SGD) at delta, add/remove neighbours.")
    static final class Epsilon implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--noise-multiplier", required = true, paramLabel = "S", description = "Noise std / clip norm.")
        double sigma;

        @CommandLine.Mixin
        Training training;

        @Option(names = "--delta", required = true, paramLabel = "D", description = "Target delta of the (epsilon, delta) guarantee, in (0, 1); usually at most 1/(10 n).")
        double delta;

        @Option(names = "--accountant", defaultValue = "rdp", paramLabel = "rdp|pld",
                description = "rdp (Renyi DP, Mironov et al.) or pld (privacy loss distributions, tighter; default: ${DEFAULT-VALUE}).")
        String accountant;

        @Option(names = "--json", description = "JSON on standard output: epsilon, delta, accountant (and order for rdp).")
        boolean json;

        @Override
        public Integer call() {
            training.check();
            checkDelta(delta);
            if (!(sigma >= 0)) {
                throw new UsageException("--noise-multiplier must be >= 0, got " + sigma);
            }
            List<String> warnings = new ArrayList<>();
            PrivacyAccountant acc = accountant(accountant, warnings);
            DpEvent e = NoiseCalibration.dpSgdEvent(sigma, training.q, training.steps);
            Map<String, Object> out = new LinkedHashMap<>();
            if (acc instanceof RdpAccountant rdp) {
                double[] eo = rdp.epsilonAndOrder(e, delta);
                out.put("epsilon", eo[0]);
                out.put("delta", delta);
                out.put("accountant", acc.name());
                if (!Double.isNaN(eo[1])) {
                    out.put("order", eo[1]);
                }
            } else {
                out.put("epsilon", acc.epsilon(e, delta));
                out.put("delta", delta);
                out.put("accountant", acc.name());
            }
            out.put("event", EventJson.write(e));
            out.put("relation", NeighbouringRelation.ADD_OR_REMOVE_ONE.id());
            out.put("warnings", warnings);
            PrintWriter w = spec.commandLine().getOut();
            if (json) {
                w.println(Json.write(out));
            } else {
                printWarnings(spec, warnings);
                double eps = (double) out.get("epsilon");
                if (Double.isInfinite(eps)) {
                    w.printf(Locale.ROOT, "epsilon = infinity at delta = %s: no privacy (%s; %s accountant; add/remove neighbours)%n",
                            Runs.formatNumber(delta), sigma == 0 ? "a noise multiplier of 0 adds no noise" : "no order gives a finite bound", acc.name());
                } else {
                    w.printf(Locale.ROOT, "epsilon = %s at delta = %s (%s accountant%s; %s; add/remove neighbours)%n",
                            Runs.formatPrecise(eps), Runs.formatNumber(delta),
                            acc.name(), out.containsKey("order") ? ", optimal order " + out.get("order") : "", e.describe());
                }
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "rdp", mixinStandardHelpOptions = true,
            description = "RDP of ONE step of the Poisson-subsampled Gaussian mechanism at the given orders.")
    static final class Rdp implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--noise-multiplier", required = true, paramLabel = "S", description = "Noise std / clip norm (sigma).")
        double sigma;

        @Option(names = "--sample-rate", required = true, paramLabel = "Q", description = "Poisson sampling probability q (expected batch / n).")
        double q;

        @Option(names = "--orders", split = ",", paramLabel = "A", description = "Rényi orders (> 1); default: the standard grid.")
        double[] orders;

        @Option(names = "--json", description = "JSON on standard output: rdp (one value per order), orders.")
        boolean json;

        @Override
        public Integer call() {
            checkRate(q);
            double[] o = orders == null ? RdpAccountant.DEFAULT_ORDERS : orders;
            for (double a : o) {
                if (!(a > 1)) {
                    throw new UsageException("--orders must all be > 1, got " + a);
                }
            }
            // keep the caller's order of orders in the output
            double[] values = new double[o.length];
            for (int i = 0; i < o.length; i++) {
                values[i] = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, new double[] {o[i]}, w -> { })
                        .rdp(new PoissonSampledEvent(q, new GaussianEvent(sigma)))[0];
            }
            PrintWriter w = spec.commandLine().getOut();
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("rdp", values);
                out.put("orders", o);
                out.put("noise_multiplier", sigma);
                out.put("sample_rate", q);
                w.println(Json.write(out));
            } else {
                w.println("order          rdp (one step)");
                for (int i = 0; i < o.length; i++) {
                    w.printf(Locale.ROOT, "%-14s %.12g%n", o[i], values[i]);
                }
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "sigma", mixinStandardHelpOptions = true,
            description = "The smallest noise multiplier whose T steps of DP-SGD reach (epsilon, delta); never overshoots.")
    static final class Sigma implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--epsilon", required = true, paramLabel = "E", description = "Target epsilon, > 0.")
        double epsilon;

        @Option(names = "--delta", required = true, paramLabel = "D", description = "Target delta of the (epsilon, delta) guarantee, in (0, 1); usually at most 1/(10 n).")
        double delta;

        @CommandLine.Mixin
        Training training;

        @Option(names = "--accountant", defaultValue = "rdp", paramLabel = "rdp|pld",
                description = "rdp (Renyi DP, Mironov et al.) or pld (privacy loss distributions, tighter; default: ${DEFAULT-VALUE}).")
        String accountant;

        @Option(names = "--json", description = "JSON on standard output: noise_multiplier, epsilon, delta, accountant.")
        boolean json;

        @Override
        public Integer call() {
            training.check();
            checkDelta(delta);
            org.privadapt.cli.PrivacyOptions.checkEpsilon("--epsilon", epsilon);
            List<String> warnings = new ArrayList<>();
            PrivacyAccountant acc = accountant(accountant, warnings);
            double s;
            try {
                s = NoiseCalibration.noiseMultiplier(acc, epsilon, delta, training.q, training.steps);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage(), e);
            }
            double reached = acc.epsilon(NoiseCalibration.dpSgdEvent(s, training.q, training.steps), delta);
            PrintWriter w = spec.commandLine().getOut();
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("noise_multiplier", s);
                out.put("epsilon", reached);
                out.put("target_epsilon", epsilon);
                out.put("delta", delta);
                out.put("accountant", acc.name());
                w.println(Json.write(out));
            } else {
                w.printf(Locale.ROOT, "noise multiplier = %s (epsilon %s <= %s at delta %s, %s accountant)%n",
                        Runs.formatPrecise(s), Runs.formatPrecise(reached), Runs.formatNumber(epsilon), Runs.formatNumber(delta),
                        acc.name());
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "gaussian", mixinStandardHelpOptions = true,
            description = "Noise standard deviation of the Gaussian mechanism for (epsilon, delta) and an L2 sensitivity.")
    static final class Gaussian implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--epsilon", required = true, paramLabel = "E", description = "Target epsilon, > 0.")
        double epsilon;

        @Option(names = "--delta", required = true, paramLabel = "D", description = "Target delta of the (epsilon, delta) guarantee, in (0, 1); usually at most 1/(10 n).")
        double delta;

        @Option(names = "--sensitivity", required = true, paramLabel = "X", description = "L2 sensitivity.")
        double sensitivity;

        @Option(names = "--analytic", description = "Analytic Gaussian mechanism (Balle and Wang 2018, exact); "
                + "default: the classic calibration, valid for epsilon < 1 only.")
        boolean analytic;

        @Option(names = "--json", description = "JSON on standard output: sigma, calibration.")
        boolean json;

        @Override
        public Integer call() {
            double sigma;
            try {
                sigma = analytic ? GaussianCalibration.analyticSigma(epsilon, delta, sensitivity)
                        : GaussianCalibration.classicSigma(epsilon, delta, sensitivity);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage(), e);
            }
            PrintWriter w = spec.commandLine().getOut();
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("sigma", sigma);
                out.put("calibration", analytic ? "analytic" : "classic");
                out.put("epsilon", epsilon);
                out.put("delta", delta);
                out.put("sensitivity", sensitivity);
                out.put("exact_delta", GaussianCalibration.exactDelta(sigma, epsilon, sensitivity));
                w.println(Json.write(out));
            } else {
                w.printf(Locale.ROOT, "sigma = %s (%s calibration; exact delta at this sigma %s)%n", Runs.formatPrecise(sigma),
                        analytic ? "analytic" : "classic", Runs.formatNumber(GaussianCalibration.exactDelta(sigma, epsilon, sensitivity)));
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "ledger", mixinStandardHelpOptions = true, description = "Print a party's budget ledger and its total.")
    static final class Ledger implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "FILE")
        Path file;

        @Option(names = "--json", description = "JSON on standard output.")
        boolean json;

        @Override
        public Integer call() throws Exception {
            BudgetLedger.Snapshot s = BudgetLedger.open(org.privadapt.cli.InputFiles.require(file, "privacy ledger FILE")).read();
            PrintWriter w = spec.commandLine().getOut();
            if (json) {
                w.println(Json.write(jsonOf(s)));
                return ExitCodes.OK;
            }
            w.print(text(s));
            w.flush();
            return ExitCodes.OK;
        }

        /** The ledger as JSON: budget, totals and every entry with its event ({@link LedgerReport#jsonOf}). */
        static Map<String, Object> jsonOf(BudgetLedger.Snapshot s) {
            return LedgerReport.jsonOf(s);
        }

        /** The ledger for people ({@link LedgerReport#text}). Ends with a newline. */
        static String text(BudgetLedger.Snapshot s) {
            return LedgerReport.text(s);
        }
    }

    static String orders(double[] o) {
        return Arrays.toString(o);
    }
}
