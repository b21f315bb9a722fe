package org.privadapt.methods.audit;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.dpot.Dpot;
import org.privadapt.methods.dpot.DpotConfig;
import org.privadapt.methods.dpot.DpotRelease;
import org.privadapt.methods.dpot.JlProjection;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;

/**
 * DPOT's source release (paper 002; docs/privacy/dpot.md) through {@link Dpot#release}, whole-batch mode, replace-one
 * (the only relation it is stated under). One feature projected to one dimension, so that the projection M (drawn
 * afresh and published with every output) is a scalar m and the canary attains the sensitivity whatever m is drawn:
 * <ul>
 *   <li>record level: D = {+R}, D' = {-R}, one class; the released row moves by 2 R |m| = the declared sensitivity
 *       2 sqrt(q + 1) R ||M||_2 at q = 1;</li>
 *   <li>attribute level: D = {0}, D' = {1}; the row moves by |m| = the declared max row norm of M.</li>
 * </ul>
 * The statistic is the likelihood-ratio test given the published m: the released row's shift from D's exact value,
 * along D''s, over the declared sensitivity (N(0, s^2) on D, N(1, s^2) on D' if the release is as claimed). The label
 * counts, released with Laplace noise in the same charge, do not move (one class, labels fixed): the audit exercises
 * the Gaussian part, which the calibration gives about nine tenths of the claimed epsilon (label-share 0.1).
 */
final class DpotAudits {
    private DpotAudits() {
    }

    static final AuditedRelease RECORD = of("dpot-record", DpotConfig.Level.RECORD);
    static final AuditedRelease ATTRIBUTE = of("dpot-attribute", DpotConfig.Level.ATTRIBUTE);

    private static AuditedRelease of(String name, DpotConfig.Level level) {
        return new AuditedRelease() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String design() {
                return level == DpotConfig.Level.RECORD ? "projected rows; one record +R turned into -R; likelihood ratio given M"
                        : "projected rows; one attribute 0 turned into 1; likelihood ratio given M";
            }

            @Override
            public Set<NeighbouringRelation> relations() {
                return EnumSet.of(NeighbouringRelation.REPLACE_ONE);
            }

            @Override
            public Prepared prepare(double epsilon, double delta, NeighbouringRelation relation, double noiseScale) {
                if (noiseScale != 1.0) {
                    throw new IllegalArgumentException(name + " has no injected-bug mode");
                }
                DpotConfig d0 = DpotConfig.defaults();
                DpotConfig cfg = new DpotConfig(level, 1, d0.clip(), d0.noiseRatio(), d0.labelShare(), false, d0.batch(), 0,
                        d0.regEntropic(), d0.regGroup(), d0.outer(), 0);
                double r = cfg.clip();
                double x0 = level == DpotConfig.Level.RECORD ? r : 0;
                double x1 = level == DpotConfig.Level.RECORD ? -r : 1;
                return Prepared.statistic((neighbour, noise) -> {
                    PrivacySession s = new PrivacySession("source", new PrivacyBudget(epsilon, delta), relation, noise, null);
                    DpotRelease out;
                    try {
                        out = Dpot.release(DenseMatrix.fromRows(new double[][] {{neighbour ? x1 : x0}}), new int[] {0}, List.of("a"),
                                cfg, s, "audit", "none");
                    } catch (Exception e) {
                        throw new IllegalStateException(name + " audit: " + e.getMessage(), e);
                    }
                    double m = out.projection().get(0, 0);
                    double declared = Dpot.rowSensitivity(cfg, JlProjection.of(out.projection()), 1);
                    double shift = (x1 - x0) * m; // D' minus D, exact
                    double released = out.batches().get(0).rows().get(0, 0);
                    return (released - x0 * m) * Math.signum(shift) / declared;
                }, epsilon);
            }
        };
    }
}
