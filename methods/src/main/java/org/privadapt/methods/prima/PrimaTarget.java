package org.privadapt.methods.prima;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.mechanisms.GaussianCalibration;
import org.privadapt.privacy.mechanisms.GaussianMechanism;

/**
 * The target's step of PRIMA ({@link Prima#release}): the plan and its single charge, the stage-1 moments and forward
 * selection, the stage-2 subspace moments ({@link Prima#noisyMoments}), where the exact moments come from
 * ({@link Prima.MomentSource}: in process, or answered first from moments already summed), and the release artifact
 * post-processed from the noisy moments. {@link Prima} keeps the public entry points and delegates here.
 */
final class PrimaTarget {
    private PrimaTarget() {
    }

    static TargetRelease release(Prima.NoisyMoments noisy, PrimaConfig cfg, String preprocessing, String method, String runId,
                                 PrivacySession session) {
        Partition partition = noisy.partition();
        SecondMoments moments = noisy.moments();
        double stage1Noise = noisy.stage1NoiseStd();
        GaussianMechanism m2 = noisy.stage2();
        double delta = session.target().delta();
        double[] mean = moments.mean();
        double[] sd = PrimaScaling.standardDeviations(moments, cfg);
        List<DenseMatrix> blocks = new ArrayList<>();
        double[] alphas = new double[partition.size()];
        for (int b = 0; b < partition.size(); b++) {
            DenseMatrix cov = PrimaScaling.scaled(moments.blockCovariance(b, cfg.centred()), partition.block(b), sd);
            if (cfg.shrink()) {
                PsdShrinking.Result r = PrimaScaling.shrink(cov, cfg);
                alphas[b] = r.alpha();
                blocks.add(r.matrix());
            } else {
                blocks.add(PsdShrinking.floorEigenvalues(cov, 0.0));
            }
        }
        ObjectNode privacy = Prima.statement(session, "target", delta);
        privacy.put("stage1_noise_std", stage1Noise);
        privacy.put("stage2_noise_std", m2.sigma());
        privacy.put("stage2_sensitivity", m2.sensitivity());
        String created = java.time.Instant.now().toString();
        TargetRelease r = new TargetRelease(runId, method, cfg, preprocessing, partition, blocks, mean, sd, alphas, privacy,
                created, null);
        String checksum = r.toArtifact().seal(); // the checksum of exactly the artifact toArtifact() writes
        return new TargetRelease(runId, method, cfg, preprocessing, partition, blocks, mean, sd, alphas, privacy, created, checksum);
    }

    /**
     * The target release's plan: public settings, d and the session's target only (no row), so that a caller can check
     * it against a ledger before reading any row ({@code PrivacySession.check}); {@link #noisyMoments} charges it.
     */
    static List<PrivacySession.Release> plan(PrimaConfig cfg, String method, int d, PrivacySession session) {
        double eps = session.target().epsilon() * (1 - 1e-9);
        double delta = session.target().delta();
        double sTotal = GaussianCalibration.analyticSigma(eps, delta, 1.0);
        boolean fs = cfg.partitioning() == PrimaConfig.Partitioning.FORWARD;
        double s1 = fs ? sTotal / Math.sqrt(cfg.fsShare()) : Double.NaN;
        double s2 = fs ? sTotal / Math.sqrt(1 - cfg.fsShare()) : sTotal;
        List<PrivacySession.Release> plan = new ArrayList<>();
        if (fs) {
            plan.add(new PrivacySession.Release(method + " target: full moments for forward selection", "Gaussian (moments, d=" + d + ")",
                    new GaussianEvent(s1), Map.of("noise_multiplier", s1, "row_bound", cfg.rowBound())));
        }
        plan.add(new PrivacySession.Release(method + " target: subspace moments", "Gaussian (block second moments, sums, count)",
                new GaussianEvent(s2), Map.of("noise_multiplier", s2, "row_bound", cfg.rowBound(), "block_scale", cfg.blockScale())));
        return plan;
    }

    static Prima.NoisyMoments noisyMoments(Prima.MomentSource source, PrimaConfig cfg, String method, long seed,
                                           PrivacySession session)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        int d = source.dimension();
        NeighbouringRelation rel = session.relation();
        boolean fs = cfg.partitioning() == PrimaConfig.Partitioning.FORWARD;
        // the whole plan in one atomic charge: a refusal leaves nothing spent (issue 14); the noise below is the
        // charged events' own noise multipliers (the last event is the subspace moments, the first the forward one)
        List<PrivacySession.Release> plan = plan(cfg, method, d, session);
        session.chargeAll(plan);
        double s1 = fs ? ((GaussianEvent) plan.get(0).event()).noiseMultiplier() : Double.NaN;
        double s2 = ((GaussianEvent) plan.get(plan.size() - 1).event()).noiseMultiplier();
        Partition partition;
        double stage1Noise = 0;
        switch (cfg.partitioning()) {
            case SINGLE:
                partition = Partition.single(d);
                break;
            case RANDOM:
                partition = Partition.random(d, cfg.blockSize(), seed);
                break;
            default: {
                Partition all = Partition.single(d);
                double c1 = cfg.momentWeight() * cfg.rowBound();
                GaussianMechanism m1 = GaussianMechanism.forNoiseMultiplier(s1,
                        SecondMomentRelease.sensitivity(rel, 1, cfg.rowBound(), cfg.rowBound(), c1), rel,
                        SecondMomentRelease.coordinates(all));
                SecondMoments full = SecondMomentRelease.addNoise(source.moments(all, null), c1, m1, session.noise());
                stage1Noise = m1.sigma();
                DenseMatrix m = PsdShrinking.floorEigenvalues(full.blockCovariance(0, cfg.centred()), 0.0);
                // noise cost per feature: the stage-2 noise for a reference partition into blocks of blockSize
                Partition reference = Partition.random(d, cfg.blockSize(), seed);
                double noiseStd2 = s2 * SecondMomentRelease.sensitivity(rel, cfg.blockBounds(reference), cfg.rowBound(),
                        cfg.momentWeight() * cfg.rowBound());
                double kappa = noiseStd2 / full.effectiveCount();
                partition = ForwardSelection.partition(m, kappa, cfg.maxBlock(), seed);
            }
        }
        double[] bounds = cfg.blockBounds(partition);
        double c = cfg.momentWeight() * cfg.rowBound();
        GaussianMechanism m2 = GaussianMechanism.forNoiseMultiplier(s2,
                SecondMomentRelease.sensitivity(rel, bounds, cfg.rowBound(), c), rel, SecondMomentRelease.coordinates(partition));
        SecondMoments moments = SecondMomentRelease.addNoise(source.moments(partition, bounds), c, m2, session.noise());
        return new Prima.NoisyMoments(partition, moments, stage1Noise, m2);
    }

    static Prima.MomentSource inProcess(FeatureMatrix features, PrimaConfig cfg) {
        return new Prima.MomentSource() {
            private FeatureMatrix rows; // clipped to R, once

            @Override
            public int dimension() {
                return features.cols();
            }

            @Override
            public SecondMomentRelease.ExactMoments moments(Partition partition, double[] blockBounds) {
                if (rows == null) {
                    rows = Prima.clipRows(features, cfg, null);
                }
                FeatureMatrix clipped = blockBounds == null ? rows : BlockClipping.clip(rows, partition, blockBounds);
                return SecondMomentRelease.exactStatistic(clipped, partition);
            }
        };
    }

    static Prima.MomentSource answeringFirst(Prima.FirstAsk ask, SecondMomentRelease.ExactMoments first,
                                             Prima.MomentSource rest) {
        return new Prima.MomentSource() {
            @Override
            public int dimension() {
                return rest.dimension();
            }

            @Override
            public SecondMomentRelease.ExactMoments moments(Partition partition, double[] blockBounds) {
                return ask.is(partition, blockBounds) ? first : rest.moments(partition, blockBounds);
            }
        };
    }
}
