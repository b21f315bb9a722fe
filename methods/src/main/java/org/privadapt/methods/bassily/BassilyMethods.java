package org.privadapt.methods.bassily;

import java.util.List;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodProvider;

/**
 * Paper 003's methods and baselines under its supervised protocol ({@link SupervisedProtocol}): a public labelled
 * source, a private labelled target training part, a public validation part for hyperparameters, a test part.
 *
 * <ul>
 *   <li>{@code target-only}, {@code source-only}, {@code source-target}: ridge regression (logistic regression for
 *       classes) on the target's training rows, the source, or both; ridge's lambda chosen on the validation rows.
 *   <li>{@code cnvxadap}: Algorithm 1 without noise, with the exact discrepancy; alpha, kappa_1 and Lambda chosen on
 *       the validation rows.
 *   <li>{@code pcnvxadap}: Algorithm 1 ({@link PCnvxAdap}); hyperparameters chosen on public data only, by simulation:
 *       the same noisy descent, calibrated for the real n and epsilon, run with the validation rows' first half standing
 *       in for the private rows and scored on the second half. No private row is read before the one charged run.
 *   <li>{@code dp-target-only}: noisy projected gradient descent on the target's training rows alone
 *       ({@link NoisyGradientDescent}).
 * </ul>
 *
 * For regression with more coordinates than private rows (d + 1 > n) the discrepancy methods and dp-target-only run,
 * by default, in a public subspace of the source, and the discrepancy methods fit the residual of a public offset
 * ({@link PublicSubspace}, {@code SupervisedSupport.reduction}): both maps are built from public rows only and are
 * row-local.
 */
public final class BassilyMethods implements MethodProvider {
    /**
     * The methods whose regression path runs with the private training part S_priv elsewhere ({@link PrivateSample}:
     * its releases are sums over its rows), by {@link #runOnSample}.
     */
    public static final java.util.Set<String> ON_A_SAMPLE = java.util.Set.of("dp-target-only", "pcnvxadap-stats");

    /**
     * {@code method}'s regression path on a drawn protocol whose private part is {@code sample}: what {@code run} does
     * after drawing the protocol in process (the settings chosen on public rows, then the charged releases).
     */
    public static org.privadapt.methods.core.AdaptationOutcome runOnSample(String method, SupervisedProtocol protocol,
                                                                           PrivateSample sample, org.privadapt.methods.core.MethodConfig config,
                                                                           org.privadapt.privacy.PrivacySession target)
            throws org.privadapt.privacy.BudgetExceededException, org.privadapt.privacy.ledger.BudgetLedger.LedgerException {
        if (!protocol.isRegression()) {
            throw new IllegalArgumentException(method + " runs on a sample elsewhere for regression (real-valued targets) only");
        }
        return switch (method) {
            case "dp-target-only" -> DpTargetOnlyMethod.regression(protocol, sample, config, target);
            case "pcnvxadap-stats" -> StatisticsPCnvxAdapMethod.fit(protocol, sample, config, target);
            default -> throw new IllegalArgumentException(method + " does not run on a sample elsewhere; those that do: " + ON_A_SAMPLE);
        };
    }

    /** All methods of this family, for the registry (target-only and source-only delegate to {@link SupervisedBaselines}). */
    @Override
    public List<AdaptationMethod> methods() {
        return List.of(new SourceTargetMethod(), new ReweightedMethod(true), new ReweightedMethod(false), new CnvxAdapMethod(false),
                new CnvxAdapMethod(true), new StatisticsPCnvxAdapMethod(), new NCnvxAdapMethod(false), new NCnvxAdapMethod(true),
                new DpTargetOnlyMethod());
    }
}
