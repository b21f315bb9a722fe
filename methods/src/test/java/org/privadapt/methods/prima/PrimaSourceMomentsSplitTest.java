package org.privadapt.methods.prima;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.mechanisms.GaussianCalibration;
import org.privadapt.privacy.mechanisms.GaussianMechanism;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The source's moment release split into its exact statistic ({@link Prima#sourceExact}) and its noise step
 * ({@link Prima#sourceMomentsNoise}) is the composition {@link Prima#train} had before the split, bit for bit on the
 * same seeded noise; and the exact statistic is the in-process {@link Prima.MomentSource}'s for the partition's block
 * bounds (what the spark module sums), bit for bit.
 */
class PrimaSourceMomentsSplitTest {

    @Test
    void theSplitSourceMomentReleaseIsTheOldCompositionBitForBit() {
        SplittableRandom r = new SplittableRandom(17);
        int n = 80;
        int d = 9;
        double[][] rows = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                rows[i][j] = r.nextGaussian() * (0.2 + i % 5);
            }
        }
        DenseMatrix x = DenseMatrix.fromRows(rows);
        PrimaConfig cfg = PrimaConfig.from(PrimaConfig.prima(PrimaConfig.Adaptation.CORAL).with(PrimaConfig.Partitioning.RANDOM, true),
                new MethodConfig("lr", 0, 1, Map.of("block-size", "4", "row-bound", "3.0")));
        for (Partition p : new Partition[] {Partition.single(d), Partition.random(d, 4, 3)}) {
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                PrivacySession session = new PrivacySession("source", new PrivacyBudget(1.5, 1e-5), rel, NoiseSource.seeded(3), null);
                // the old composition, as Prima.train had it inline
                double eps = session.target().epsilon() * (1 - 1e-9);
                double sOld = GaussianCalibration.analyticSigma(cfg.sourceShare() * eps, session.target().delta(), 1.0);
                FeatureMatrix clipped = Prima.clipRows(x, cfg, p);
                double c = cfg.momentWeight() * cfg.rowBound();
                GaussianMechanism m = GaussianMechanism.forNoiseMultiplier(sOld,
                        SecondMomentRelease.sensitivity(rel, cfg.blockBounds(p), cfg.rowBound(), c), rel,
                        SecondMomentRelease.coordinates(p));
                SecondMoments old = SecondMomentRelease.release(clipped, p, c, m, NoiseSource.seeded(41));

                double s = Prima.sourceMomentsMultiplier(cfg, session);
                assertThat(s).isEqualTo(sOld);
                SecondMomentRelease.ExactMoments exact = Prima.sourceExact(clipped, p);
                SecondMoments split = Prima.sourceMomentsNoise(exact, cfg, s, rel, NoiseSource.seeded(41));
                assertThat(split.noiseStd()).isEqualTo(old.noiseStd());
                assertThat(split.count()).isEqualTo(old.count());
                assertThat(split.sums()).isEqualTo(old.sums());
                for (int b = 0; b < p.size(); b++) {
                    assertThat(split.blockGrams().get(b).data()).as("block %d", b).isEqualTo(old.blockGrams().get(b).data());
                }

                // the exact statistic is the in-process moment source's at the partition's block bounds
                SecondMomentRelease.ExactMoments viaSource = Prima.inProcess(x, cfg).moments(p, cfg.blockBounds(p));
                assertThat(viaSource.count()).isEqualTo(exact.count());
                assertThat(viaSource.sums()).isEqualTo(exact.sums());
                for (int b = 0; b < p.size(); b++) {
                    assertThat(viaSource.grams().get(b).data()).isEqualTo(exact.grams().get(b).data());
                }
            }
        }
    }
}
