package org.privadapt.methods.audit;

import java.util.EnumSet;
import java.util.Set;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.mixture.CovarianceType;
import org.privadapt.models.mixture.DpGaussianMixtureEm;
import org.privadapt.models.mixture.SufficientStatistics;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * DP-EM, the Gaussian mixture of paper 004's source release (docs/privacy/dp-em.md), through the code that release
 * runs: sigma from {@link DpGaussianMixtureEm#noiseMultiplier} with the RDP accountant, as {@code SourceRelease.plan}
 * calibrates it (with the whole epsilon: {@code em-share} 1), and for every output a fresh session at the claimed
 * (epsilon, delta) with the audit's noise, {@link DpGaussianMixtureEm#fit(org.privadapt.math.FeatureMatrix,
 * DpGaussianMixtureEm.Config, PrivacySession, DpGaussianMixtureEm.Observer)} (the charge, the clipping, the T + 1
 * noisy releases and the post-processing between them), its observer collecting the noisy statistics of every release.
 *
 * <p><b>The pair.</b> K = 1 component, d = 1, R = 1, {@link #ITERATIONS} iterations (T + 1 = 4 releases), diagonal
 * covariance. D: rows 0.5 R and -0.5 R; D' adds the canary R e_1, at the clip bound. With one component every
 * responsibility is 1 whatever the current model, so in every release the canary moves the count by 1, the sum by R
 * and the second moment by R^2: each of the 3 (T + 1) Gaussian blocks by its full sensitivity, which is exactly the
 * composition the claim charges ({@code sigma / sqrt(3 (T + 1))}). With K > 1 the canary's responsibilities would
 * split (||r||_2 &lt; 1) and the pair would fall short of the sensitivity.
 *
 * <p><b>The test</b> is the likelihood ratio of the transcript: the sum over releases of (count + sum / R + moment /
 * R^2), each block's shift (from the code's own query, {@link DpGaussianMixtureEm#initialStatistics}, on D' minus D)
 * over its claimed noise variance (sigma^2 times 1, R^2, R^4; the common sigma^2 dropped). It reads the transcript of
 * noisy statistics, which the claim covers (the intermediate models are post-processing of it); the released final
 * mixture alone is a function of the last release only (K = 1: every model is computed from its release's statistics
 * alone), so an attack on it could reach only 1 / (T + 1) of the composed privacy loss's variance.
 *
 * <p><b>The claim</b> is the epsilon the session reports after the fit's charge: the event calibrated by the RDP
 * accountant is certified by the exact Gaussian profile, so the claim is below the requested epsilon (the RDP
 * conversion is loose).
 */
final class DpEmAudits {
    private DpEmAudits() {
    }

    /** T. */
    static final int ITERATIONS = 3;

    static final AuditedRelease DP_EM = new AuditedRelease() {
        @Override
        public String name() {
            return "dp-em";
        }

        @Override
        public String design() {
            return "K = 1, d = 1, T = " + ITERATIONS + "; D' adds a row at the clip bound (every block of every release moves "
                    + "by its sensitivity); likelihood ratio on the noisy statistics of all releases";
        }

        @Override
        public Set<NeighbouringRelation> relations() {
            return EnumSet.of(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        }

        @Override
        public Prepared prepare(double epsilon, double delta, NeighbouringRelation relation, double noiseScale) {
            if (noiseScale != 1.0) {
                throw new IllegalArgumentException("dp-em has no injected-bug mode");
            }
            if (relation != NeighbouringRelation.ADD_OR_REMOVE_ONE) {
                throw new IllegalArgumentException("dp-em is stated under add/remove-one only");
            }
            double r = 1.0;
            RdpAccountant acc = new RdpAccountant(relation, RdpAccountant.DEFAULT_ORDERS, w -> { });
            double sigma = DpGaussianMixtureEm.noiseMultiplier(acc, epsilon, delta, ITERATIONS);
            DpGaussianMixtureEm.Config c = DpGaussianMixtureEm.Config.of(1, CovarianceType.DIAGONAL, r, ITERATIONS, sigma, 1L);
            DenseMatrix d = DenseMatrix.fromRows(new double[][] {{0.5 * r}, {-0.5 * r}});
            DenseMatrix dPrime = DenseMatrix.fromRows(new double[][] {{0.5 * r}, {-0.5 * r}, {r}});
            // each block's shift over its claimed variance (up to the common sigma^2)
            SufficientStatistics qd = DpGaussianMixtureEm.initialStatistics(DpGaussianMixtureEm.clipRows(d, r), c.covarianceType());
            SufficientStatistics qp = DpGaussianMixtureEm.initialStatistics(DpGaussianMixtureEm.clipRows(dPrime, r), c.covarianceType());
            double[] w = weights(qd, qp, r);
            PrivacySession plan = session(epsilon, delta, relation, NoiseSource.secure());
            try {
                plan.charge("dp-em audit", "DP-EM", DpGaussianMixtureEm.event(c), java.util.Map.of());
            } catch (BudgetExceededException | BudgetLedger.LedgerException e) {
                throw new IllegalStateException("dp-em audit: the fit does not fit its own budget: " + e.getMessage(), e);
            }
            double claimed = plan.spent().epsilon();
            return Prepared.statistic((neighbour, noise) -> {
                double[] t = {0};
                try {
                    DpGaussianMixtureEm.fit(neighbour ? dPrime : d, c, session(epsilon, delta, relation, noise),
                            (index, input, noisy) -> t[0] += dot(w, vector(noisy)));
                } catch (BudgetExceededException | BudgetLedger.LedgerException e) {
                    throw new IllegalStateException("dp-em audit: " + e.getMessage(), e);
                }
                return t[0];
            }, claimed);
        }
    };

    private static PrivacySession session(double epsilon, double delta, NeighbouringRelation relation, NoiseSource noise) {
        return new PrivacySession("source", new PrivacyBudget(epsilon, delta), relation, noise, null);
    }

    /** The released coordinates: counts, sums, second moments (as the Gaussian mechanism perturbs them). */
    static double[] vector(SufficientStatistics s) {
        double[] c = s.countVector();
        double[] m = s.sumVector();
        double[] q = s.secondMomentVector();
        double[] v = new double[c.length + m.length + q.length];
        System.arraycopy(c, 0, v, 0, c.length);
        System.arraycopy(m, 0, v, c.length, m.length);
        System.arraycopy(q, 0, v, c.length + m.length, q.length);
        return v;
    }

    /** Shift over claimed variance per coordinate: the blocks' noise is sigma times 1, R, R^2. */
    static double[] weights(SufficientStatistics d, SufficientStatistics dPrime, double r) {
        double[] a = vector(d);
        double[] b = vector(dPrime);
        int nc = d.countVector().length;
        int ns = d.sumVector().length;
        double[] w = new double[a.length];
        for (int i = 0; i < w.length; i++) {
            double scale = i < nc ? 1 : i < nc + ns ? r : r * r;
            w[i] = (b[i] - a[i]) / (scale * scale);
        }
        return w;
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
