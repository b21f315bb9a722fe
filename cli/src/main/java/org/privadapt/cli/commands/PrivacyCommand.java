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
        subcommands = {PrivacyCommand.Statement.class, PrivacyCommand.Epsilon.class, PrivacyCommand.Rdp.class,
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

    @Command(name = "statement", mixinStandardHelpOptions = true,
            description = {"The privacy statement of a DP-SGD training run, as TF Privacy's compute_dp_sgd_privacy_statement "
                + "gives it: epsilon under Poisson sampling (RDP and PLD), epsilon when each example is used once per epoch "
                + "(shuffled batches, no amplification), and, with --max-examples-per-user, the user-level epsilon.",
                "Example: privadapt privacy statement --n 60000 --batch 256 --epochs 15 --noise-multiplier 1.1 --delta 1e-5"})
    static final class Statement implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--n", required = true, paramLabel = "N", description = "Number of training examples.")
        long n;

        @Option(names = "--batch", required = true, paramLabel = "B", description = "Batch size (expected batch under Poisson sampling).")
        long batch;

        @Option(names = "--epochs", required = true, paramLabel = "E", description = "Number of epochs (may be fractional).")
        double epochs;

        @Option(names = "--noise-multiplier", required = true, paramLabel = "S", description = "Noise std / clip norm (sigma).")
        double sigma;

        @Option(names = "--delta", required = true, paramLabel = "D", description = "Target delta, in (0, 1); usually at most 1/(10 N).")
        double delta;

        @Option(names = "--max-examples-per-user", paramLabel = "K",
                description = "Also state the user-level guarantee when one person contributes at most K examples.")
        Integer perUser;

        @Option(names = "--json", description = "JSON on standard output.")
        boolean json;

        @Override
        public Integer call() {
            if (n < 1 || batch < 1 || batch > n) {
                throw new UsageException("need --n >= 1 and 1 <= --batch <= --n, got n " + n + ", batch " + batch);
            }
            if (!(epochs > 0) || Double.isInfinite(epochs)) {
                throw new UsageException("--epochs must be > 0, got " + epochs);
            }
            if (!(sigma > 0) || Double.isInfinite(sigma)) {
                throw new UsageException("--noise-multiplier must be > 0, got " + sigma);
            }
            checkDelta(delta);
            if (perUser != null && perUser < 1) {
                throw new UsageException("--max-examples-per-user must be >= 1, got " + perUser);
            }
            double q = (double) batch / n;
            long steps = (long) Math.ceil(epochs * n / batch);
            long wholeEpochs = (long) Math.ceil(epochs);
            List<String> warnings = new ArrayList<>();
            RdpAccountant rdp = (RdpAccountant) accountant("rdp", warnings);
            PrivacyAccountant pld = accountant("pld", warnings);
            DpEvent poisson = NoiseCalibration.dpSgdEvent(sigma, q, steps);
            DpEvent shuffled = new org.privadapt.privacy.events.SelfComposedEvent(new GaussianEvent(sigma), wholeEpochs);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("n", n);
            out.put("batch", batch);
            out.put("sample_rate", q);
            out.put("epochs", epochs);
            out.put("steps", steps);
            out.put("noise_multiplier", sigma);
            out.put("delta", delta);
            out.put("relation", NeighbouringRelation.ADD_OR_REMOVE_ONE.id());
            double epsRdp = rdp.epsilon(poisson, delta);
            double epsPld = pld.epsilon(poisson, delta);
            double epsOnce = pld.epsilon(shuffled, delta);
            out.put("epsilon_poisson_rdp", epsRdp);
            out.put("epsilon_poisson_pld", epsPld);
            out.put("epsilon_once_per_epoch", epsOnce);
            Double userOnce = null;
            Double userPoisson = null;
            if (perUser != null) {
                int k = perUser;
                // once per epoch: the worst case puts all k examples in one batch, a Gaussian of sensitivity k
                userOnce = pld.epsilon(new org.privadapt.privacy.events.SelfComposedEvent(new GaussianEvent(sigma / k),
                        wholeEpochs), delta);
                userPoisson = k == 1 ? epsRdp : groupEpsilon(rdp, poisson, k, delta);
                out.put("max_examples_per_user", k);
                out.put("user_epsilon_once_per_epoch", userOnce);
                out.put("user_epsilon_poisson", userPoisson);
            }
            out.put("warnings", warnings);
            PrintWriter w = spec.commandLine().getOut();
            if (json) {
                w.println(Json.write(out));
                return ExitCodes.OK;
            }
            printWarnings(spec, warnings);
            w.printf(Locale.ROOT, "DP-SGD over %d examples, batch %d (sampling rate %s), noise multiplier %s, %s epochs = %d steps.%n",
                    n, batch, Runs.formatNumber(q), Runs.formatNumber(sigma), Runs.formatNumber(epochs), steps);
            w.println("The guarantee covers every intermediate model (all checkpoints), not only the final one.");
            w.println();
            w.printf(Locale.ROOT, "Example-level DP, add or remove one example, delta = %s:%n", Runs.formatNumber(delta));
            w.printf(Locale.ROOT, "  epsilon assuming Poisson sampling (*):      %s (PLD accountant; RDP: %s)%n",
                    Runs.formatNumber(epsPld), Runs.formatNumber(epsRdp));
            w.printf(Locale.ROOT, "  epsilon with each example once per epoch:  %s%n", Runs.formatNumber(epsOnce));
            if (perUser != null) {
                w.println();
                w.printf(Locale.ROOT, "User-level DP, at most %d examples per person, delta = %s:%n", perUser, Runs.formatNumber(delta));
                w.printf(Locale.ROOT, "  epsilon assuming Poisson sampling (*):      %s (group privacy from the example level; loose)%n",
                        userPoisson == null || userPoisson.isInfinite() ? "infinity" : Runs.formatNumber(userPoisson));
                w.printf(Locale.ROOT, "  epsilon with each example once per epoch:  %s (all %d examples in one batch, worst case)%n",
                        Runs.formatNumber(userOnce), perUser);
            }
            w.println();
            w.println("(*) Poisson sampling: every step includes each example independently with probability B/N, as "
                    + "privadapt's DP-SGD does. Training that shuffles the data and slices it into fixed-size batches is not "
                    + "Poisson sampling, and only the once-per-epoch epsilon applies to it (no amplification by sampling; it "
                    + "assumes removing an example leaves every other example's batch unchanged).");
            return ExitCodes.OK;
        }

        /**
         * Group privacy for k examples from the example-level curve: an (e, d1)-DP mechanism is
         * (k e, k exp((k-1) e) d1)-DP for groups of k (Vadhan, Lemma 2.2 / Dwork-Roth); the d1 on a log grid that
         * meets the delta with the smallest k e. Valid, usually loose.
         */
        static double groupEpsilon(RdpAccountant rdp, DpEvent e, int k, double delta) {
            double best = Double.POSITIVE_INFINITY;
            double hi = Math.log(delta / k);
            for (int i = 0; i <= 400; i++) {
                double d1 = Math.exp(hi - 0.5 * i);
                if (d1 <= 0) {
                    break;
                }
                double eps = rdp.epsilon(e, d1);
                if (!Double.isFinite(eps)) {
                    continue;
                }
                double groupDelta = k * Math.exp((k - 1) * eps) * d1;
                if (groupDelta <= delta) {
                    best = Math.min(best, k * eps);
                }
            }
            return best;
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

        /** The ledger as JSON: budget, totals and every entry with its event. */
        static Map<String, Object> jsonOf(BudgetLedger.Snapshot s) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("file", s.file().toString());
                out.put("party", s.party());
                out.put("budget", Map.of("epsilon", s.budget().epsilon(), "delta", s.budget().delta()));
                out.put("relation", s.relation().id());
                out.put("epsilon_spent", s.epsilonSpent());
                out.put("epsilon_remaining", s.epsilonRemaining());
                out.put("accountant", s.accountant());
                out.put("all_noise_secure", s.allNoiseSecure());
                List<Map<String, Object>> entries = new ArrayList<>();
                for (BudgetLedger.Entry e : s.entries()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("seq", e.seq());
                    m.put("time", e.time());
                    m.put("label", e.label());
                    m.put("mechanism", e.mechanism());
                    m.put("event", EventJson.write(e.event()));
                    m.put("sampler", e.sampler());
                    m.put("secure_noise", e.secureNoise());
                    m.put("parameters", e.parameters());
                    m.put("epsilon_after", e.epsilonAfter());
                    entries.add(m);
                }
                out.put("entries", entries);
            return out;
        }

        /**
         * The ledger for people: one row per entry with its own epsilon (the entry alone, at the ledger's delta) and
         * the running total, the event and mechanism on an indented line, and each distinct noise sampler once at
         * the end instead of on every entry. Ends with a newline.
         */
        static String text(BudgetLedger.Snapshot s) {
            StringBuilder b = new StringBuilder();
            b.append("ledger ").append(s.file()).append('\n');
            b.append("party ").append(s.party()).append(", budget epsilon ").append(Runs.formatNumber(s.budget().epsilon()))
                    .append(" at delta ").append(Runs.formatNumber(s.budget().delta())).append(", ")
                    .append(s.relation().description()).append(" neighbours\n\n");
            b.append(String.format(Locale.ROOT, "  %-4s %-19s  %-9s  %-9s  %s%n", "#", "time (UTC)", "eps alone", "eps total", "label"));
            List<String> samplers = new ArrayList<>();
            for (BudgetLedger.Entry e : s.entries()) {
                org.privadapt.privacy.accounting.Accountants.Certified alone = org.privadapt.privacy.accounting.Accountants
                        .certify(s.relation(), e.event(), s.budget().delta());
                String time = e.time() == null ? "" : e.time().replace('T', ' ');
                time = time.length() > 19 ? time.substring(0, 19) : time;
                b.append(String.format(Locale.ROOT, "  %-4d %-19s  %-9s  %-9s  %s%n", e.seq(), time,
                        alone == null ? "n/a" : Runs.formatNumber(alone.epsilon()), Runs.formatNumber(e.epsilonAfter()), e.label()));
                int k = samplers.indexOf(e.sampler());
                if (k < 0) {
                    samplers.add(e.sampler());
                    k = samplers.size() - 1;
                }
                b.append("       ").append(e.mechanism()).append("; noise [").append(k + 1).append(']')
                        .append(e.secureNoise() ? "" : " NOT SECURE (seeded)").append('\n');
                b.append("       event: ").append(e.event().describe()).append('\n');
            }
            if (!samplers.isEmpty()) {
                b.append("\nnoise samplers:\n");
                for (int i = 0; i < samplers.size(); i++) {
                    b.append("  [").append(i + 1).append("] ").append(samplers.get(i)).append('\n');
                }
            }
            b.append(String.format(Locale.ROOT, "%ntotal: epsilon %s of %s spent at delta %s (%s accountant), %s remaining%n",
                    Runs.formatNumber(s.epsilonSpent()), Runs.formatNumber(s.budget().epsilon()),
                    Runs.formatNumber(s.budget().delta()), s.accountant(), Runs.formatNumber(s.epsilonRemaining())));
            if (!s.allNoiseSecure()) {
                b.append("NOT PRIVATE: at least one release used seeded (non-secure) noise; its guarantee does not hold.\n");
            }
            return b.toString();
        }
    }

    static String orders(double[] o) {
        return Arrays.toString(o);
    }
}
