package org.privadapt.methods.core;

import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.dp.ClassStatistics;
import org.privadapt.models.dp.NoiseAndSampling;

/**
 * The class-statistics learners' releases ({@code ncm} and {@code lda}), each as its exact statistic and its noise
 * step: an engine that sums the rows elsewhere (the spark module, the streamed trainers) calls the two steps itself.
 * The public entry points are {@link PrivateLearners}' ({@code ncmRelease}, {@code ldaExact}, ...), which delegate
 * here.
 */
final class StatisticsReleases {
    private StatisticsReleases() {
    }

    /** See {@link PrivateLearners#ncmRelease}. */
    static ClassStatistics ncmRelease(PrivateLearners.Plan p, FeatureMatrix x, int[] y, int k, NoiseAndSampling rnd) {
        requireKind(p, PrivateLearners.Kind.NCM);
        return ncmNoise(p, ncmExact(x, y, k), rnd);
    }

    /** See {@link PrivateLearners#ncmExact}. */
    static ClassStatistics ncmExact(FeatureMatrix x, int[] y, int k) {
        return ClassStatistics.of(ClassStatistics.normaliseRows(x), y, k, false);
    }

    /** See {@link PrivateLearners#ncmNoise}. */
    static ClassStatistics ncmNoise(PrivateLearners.Plan p, ClassStatistics exact, NoiseAndSampling rnd) {
        requireKind(p, PrivateLearners.Kind.NCM);
        ClassStatistics.Sensitivities delta = ClassStatistics.sensitivities(p.relation(), 1.0);
        return exact.withNoise(Double.POSITIVE_INFINITY, p.noiseMultiplier(), Double.POSITIVE_INFINITY, delta, rnd);
    }

    /** See {@link PrivateLearners#ldaRelease}. */
    static ClassStatistics ldaRelease(PrivateLearners.Plan p, FeatureMatrix x, int[] y, int k, NoiseAndSampling rnd) {
        requireKind(p, PrivateLearners.Kind.LDA);
        ldaShares(p); // the shares are checked before any row is read
        return ldaNoise(p, ldaExact(p, x, y, k), rnd);
    }

    /** See {@link PrivateLearners#ldaRowBound}. */
    static double ldaRowBound(PrivateLearners.Plan p) {
        requireKind(p, PrivateLearners.Kind.LDA);
        return p.config().param("learner-row-bound", 1.0);
    }

    /** See {@link PrivateLearners#ldaExact}. */
    static ClassStatistics ldaExact(PrivateLearners.Plan p, FeatureMatrix x, int[] y, int k) {
        FeatureMatrix rows = ClassStatistics.clipRows(x, ldaRowBound(p));
        return ClassStatistics.of(rows, y, k, true);
    }

    /** See {@link PrivateLearners#ldaNoise}. */
    static ClassStatistics ldaNoise(PrivateLearners.Plan p, ClassStatistics exact, NoiseAndSampling rnd) {
        double[] shares = ldaShares(p);
        double s = p.noiseMultiplier();
        return exact.withNoise(s / Math.sqrt(shares[0]), s / Math.sqrt(shares[1]), s / Math.sqrt(shares[2]),
                ClassStatistics.sensitivities(p.relation(), ldaRowBound(p)), rnd);
    }

    /** The lda plan's (count, sum, moment) shares of the precision, checked. */
    private static double[] ldaShares(PrivateLearners.Plan p) {
        requireKind(p, PrivateLearners.Kind.LDA);
        MethodConfig c = p.config();
        double countShare = c.param("lda-count-share", 0.05);
        double momentShare = c.param("lda-moment-share", 0.5);
        double sumShare = LearnerSettings.checkLdaShares(countShare, momentShare);
        return new double[] {countShare, sumShare, momentShare};
    }

    private static void requireKind(PrivateLearners.Plan p, PrivateLearners.Kind kind) {
        if (p.kind() != kind) {
            throw new IllegalArgumentException("not an " + kind.label() + " plan: " + p.kind().label());
        }
    }
}
