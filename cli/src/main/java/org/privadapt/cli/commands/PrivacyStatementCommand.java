package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.util.ArrayList;
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
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.accounting.PrivacyAccountant;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code privadapt privacy statement}: the privacy statement of a DP-SGD training run (example level under Poisson
 * sampling and once per epoch, and user level by group privacy), as TF Privacy words it. A subcommand of
 * {@link PrivacyCommand}, whose option checks it shares.
 */
@Command(name = "statement", mixinStandardHelpOptions = true,
        description = {"The privacy statement of a DP-SGD training run, as TF Privacy's compute_dp_sgd_privacy_statement "
            + "gives it: epsilon under Poisson sampling (RDP and PLD), epsilon when each example is used once per epoch "
            + "(shuffled batches, no amplification), and, with --max-examples-per-user, the user-level epsilon.",
            "Example: privadapt privacy statement --n 60000 --batch 256 --epochs 15 --noise-multiplier 1.1 --delta 1e-5"})
final class PrivacyStatementCommand implements Callable<Integer> {
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
        PrivacyCommand.checkDelta(delta);
        if (perUser != null && perUser < 1) {
            throw new UsageException("--max-examples-per-user must be >= 1, got " + perUser);
        }
        double q = (double) batch / n;
        long steps = (long) Math.ceil(epochs * n / batch);
        long wholeEpochs = (long) Math.ceil(epochs);
        List<String> warnings = new ArrayList<>();
        RdpAccountant rdp = (RdpAccountant) PrivacyCommand.accountant("rdp", warnings);
        PrivacyAccountant pld = PrivacyCommand.accountant("pld", warnings);
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
        PrivacyCommand.printWarnings(spec, warnings);
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
