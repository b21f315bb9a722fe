package org.privadapt.models.mixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The neighbouring-dataset harness (docs/privacy/testing.md) for DP-EM, add/remove-one-row: (a) for every release,
 * given the same public input (the previous release's model, or nothing for the initial release), the three blocks
 * the noise is added to differ between D and D' by at most 1, R and R^2 (jointly sqrt(3) after dividing by the noise
 * scales); (b) with the same seeded noise, everything but the DP values (K, d, T, covariance type, number of
 * releases, the event, the noise description) is identical.
 */
class DpGaussianMixtureNeighboursTest {
    static final double R = 3.0;
    static final double SLACK = 1 + 1e-9;

    record Pair(String name, DenseMatrix d, DenseMatrix dPrime) {
    }

    /** 40 rows in R^4 from three clusters; about a third of them lie beyond R and are clipped. */
    static DenseMatrix base() {
        SplittableRandom r = new SplittableRandom(17);
        double[][] centres = {{2, 0, 0, 0}, {-1, 2, 0, 1}, {0, -1, 2.5, 0}};
        DenseMatrix x = DenseMatrix.zeros(40, 4);
        for (int i = 0; i < 40; i++) {
            for (int j = 0; j < 4; j++) {
                x.set(i, j, centres[i % 3][j] + 0.7 * r.nextGaussian());
            }
        }
        return x;
    }

    static DenseMatrix without(DenseMatrix x, int row) {
        int[] idx = new int[x.rows() - 1];
        for (int i = 0, t = 0; i < x.rows(); i++) {
            if (i != row) {
                idx[t++] = i;
            }
        }
        return x.selectRows(idx);
    }

    static DenseMatrix with(DenseMatrix x, double[] row) {
        return x.vstack(new DenseMatrix(1, row.length, row.clone()));
    }

    /** Add/remove neighbours: random and adversarial rows, in both directions. */
    static List<Pair> addRemove() {
        DenseMatrix x = base();
        List<Pair> p = new ArrayList<>();
        p.add(new Pair("first row removed", x, without(x, 0)));
        p.add(new Pair("last row removed", x, without(x, x.rows() - 1)));
        p.add(new Pair("row 17 removed", x, without(x, 17)));
        p.add(new Pair("R e1 added (at the bound)", x, with(x, new double[] {R, 0, 0, 0})));
        p.add(new Pair("-R e3 added", x, with(x, new double[] {0, 0, -R, 0})));
        p.add(new Pair("row 1000 R beyond the bound added", x, with(x, new double[] {1000 * R, -700 * R, 300 * R, 5 * R})));
        p.add(new Pair("duplicate of row 5 added", x, with(x, x.row(5))));
        p.add(new Pair("zero row added", x, with(x, new double[4])));
        p.add(new Pair("far row added in the other direction", with(x, new double[] {-4000, 2, 2, 9000}), x));
        return p;
    }

    static double diffNorm(double[] a, double[] b) {
        assertThat(a.length).isEqualTo(b.length);
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s);
    }

    /** The three blocks' differences, each over its declared sensitivity; returns them for tightness checks. */
    static double[] checkSensitivity(String what, SufficientStatistics a, SufficientStatistics b) {
        assertThat(a.components()).isEqualTo(b.components());
        assertThat(a.dimension()).isEqualTo(b.dimension());
        double dc = diffNorm(a.countVector(), b.countVector());
        double ds = diffNorm(a.sumVector(), b.sumVector()) / R;
        double dm = diffNorm(a.secondMomentVector(), b.secondMomentVector()) / (R * R);
        assertThat(dc).as("%s: counts", what).isLessThanOrEqualTo(SLACK);
        assertThat(ds).as("%s: sums / R", what).isLessThanOrEqualTo(SLACK);
        assertThat(dm).as("%s: second moments / R^2", what).isLessThanOrEqualTo(SLACK);
        assertThat(Math.sqrt(dc * dc + ds * ds + dm * dm)).as("%s: joint, whitened", what).isLessThanOrEqualTo(Math.sqrt(3) * SLACK);
        return new double[] {dc, ds, dm};
    }

    static SessionRandomness seeded(long seed) {
        return new SessionRandomness(NoiseSource.seeded(seed));
    }

    record Run(DpGaussianMixtureEm.Result result, List<GaussianMixture> inputs, List<SufficientStatistics> released) {
    }

    static Run run(DenseMatrix x, DpGaussianMixtureEm.Config c, long noiseSeed) {
        List<GaussianMixture> inputs = new ArrayList<>();
        List<SufficientStatistics> released = new ArrayList<>();
        List<Integer> indices = new ArrayList<>();
        DpGaussianMixtureEm.Result r = DpGaussianMixtureEm.fit(x, c, seeded(noiseSeed), (i, in, noisy) -> {
            indices.add(i);
            inputs.add(in);
            released.add(noisy);
        });
        for (int i = 0; i < indices.size(); i++) {
            assertThat(indices.get(i)).isEqualTo(i);
        }
        return new Run(r, inputs, released);
    }

    static GaussianMixture randomModel(CovarianceType type, int k, int d, SplittableRandom r) {
        double[] w = new double[k];
        double s = 0;
        for (int c = 0; c < k; c++) {
            w[c] = 0.05 + r.nextDouble();
            s += w[c];
        }
        DenseMatrix means = DenseMatrix.zeros(k, d);
        DenseMatrix vars = DenseMatrix.zeros(k, d);
        List<DenseMatrix> cov = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            w[c] /= s;
            DenseMatrix a = DenseMatrix.zeros(d, d);
            for (int j = 0; j < d; j++) {
                means.set(c, j, 2 * r.nextGaussian());
                vars.set(c, j, 0.01 + 3 * r.nextDouble());
                for (int i = 0; i < d; i++) {
                    a.set(i, j, r.nextGaussian());
                }
            }
            cov.add(org.privadapt.math.LinAlg.multiplyTransB(a, a).plusIdentity(0.01));
        }
        return type == CovarianceType.FULL ? GaussianMixture.full(w, means, cov) : GaussianMixture.diagonal(w, means, vars);
    }

    @Test
    void everyReleaseMovesByAtMostItsSensitivityGivenTheSamePublicInput() {
        SplittableRandom rnd = new SplittableRandom(3);
        for (CovarianceType type : CovarianceType.values()) {
            DpGaussianMixtureEm.Config c = DpGaussianMixtureEm.Config.of(3, type, R, 4, 1.0, 11);
            for (Pair p : addRemove()) {
                String what = type + ", " + p.name();
                DenseMatrix zd = DpGaussianMixtureEm.clipRows(p.d(), R);
                DenseMatrix zp = DpGaussianMixtureEm.clipRows(p.dPrime(), R);
                checkSensitivity(what + ", initial release", DpGaussianMixtureEm.initialStatistics(zd, type),
                        DpGaussianMixtureEm.initialStatistics(zp, type));
                // each iteration's input is the previous public output; the runs on D and on D' give two sequences,
                // and random models stand for any other previous output
                List<GaussianMixture> inputs = new ArrayList<>();
                inputs.addAll(run(p.d(), c, 5).inputs().subList(1, 5));
                inputs.addAll(run(p.dPrime(), c, 5).inputs().subList(1, 5));
                for (int t = 0; t < 4; t++) {
                    inputs.add(randomModel(type, 3, 4, rnd));
                }
                for (int t = 0; t < inputs.size(); t++) {
                    checkSensitivity(what + ", input model " + t, DpGaussianMixtureEm.statistics(zd, inputs.get(t)),
                            DpGaussianMixtureEm.statistics(zp, inputs.get(t)));
                }
            }
        }
    }

    @Test
    void theBoundsAreAttainedByARowAtTheClipNorm() {
        // adding R e1 with one-hot responsibility (K = 1): the count moves by 1, the sum by R, the second moment by R^2
        for (CovarianceType type : CovarianceType.values()) {
            DenseMatrix x = base();
            double[] d = checkSensitivity(type + " tight", DpGaussianMixtureEm.initialStatistics(DpGaussianMixtureEm.clipRows(x, R), type),
                    DpGaussianMixtureEm.initialStatistics(DpGaussianMixtureEm.clipRows(with(x, new double[] {10 * R, 0, 0, 0}), R), type));
            assertThat(d).containsExactly(new double[] {1, 1, 1}, within(1e-9));
            // and for a row off the axes, the full block's L2 norm is its Frobenius norm ||z||^2 = R^2 (sqrt(2) scaling)
            double[] e = checkSensitivity(type + " tight, diagonal row",
                    DpGaussianMixtureEm.initialStatistics(DpGaussianMixtureEm.clipRows(x, R), type),
                    DpGaussianMixtureEm.initialStatistics(DpGaussianMixtureEm.clipRows(with(x, new double[] {5, 5, 5, 5}), R), type));
            assertThat(e[2]).isCloseTo(type == CovarianceType.FULL ? 1.0 : 0.5, within(1e-9));
        }
    }

    @Test
    void withTheSameSeededNoiseTheReleasesDifferOnlyByTheQueryAndNothingElseDiffers() {
        for (CovarianceType type : CovarianceType.values()) {
            DpGaussianMixtureEm.Config c = DpGaussianMixtureEm.Config.of(3, type, R, 4, 1.0, 11);
            for (Pair p : addRemove()) {
                String what = type + ", " + p.name();
                Run a = run(p.d(), c, 99);
                Run b = run(p.dPrime(), c, 99);
                // the initial release has no input: its noisy values differ by exactly the queries' difference
                SufficientStatistics qa = DpGaussianMixtureEm.initialStatistics(DpGaussianMixtureEm.clipRows(p.d(), R), type);
                SufficientStatistics qb = DpGaussianMixtureEm.initialStatistics(DpGaussianMixtureEm.clipRows(p.dPrime(), R), type);
                assertSameNoise(what, a.released().get(0).countVector(), b.released().get(0).countVector(), qa.countVector(), qb.countVector());
                assertSameNoise(what, a.released().get(0).sumVector(), b.released().get(0).sumVector(), qa.sumVector(), qb.sumVector());
                assertSameNoise(what, a.released().get(0).secondMomentVector(), b.released().get(0).secondMomentVector(),
                        qa.secondMomentVector(), qb.secondMomentVector());
                // everything that is not a DP value is identical
                assertThat(a.result().releases()).as(what).isEqualTo(b.result().releases()).isEqualTo(5);
                assertThat(a.released()).hasSize(5);
                assertThat(b.released()).hasSize(5);
                assertThat(a.result().event()).isEqualTo(b.result().event());
                assertThat(a.result().noise()).isEqualTo(b.result().noise());
                assertThat(a.result().isPrivate()).isEqualTo(b.result().isPrivate());
                GaussianMixture ma = a.result().model();
                GaussianMixture mb = b.result().model();
                assertThat(ma.components()).isEqualTo(mb.components()).isEqualTo(3);
                assertThat(ma.dimension()).isEqualTo(mb.dimension()).isEqualTo(4);
                assertThat(ma.covarianceType()).isEqualTo(mb.covarianceType()).isEqualTo(type);
                for (int t = 0; t < 5; t++) {
                    SufficientStatistics ra = a.released().get(t);
                    SufficientStatistics rb = b.released().get(t);
                    assertThat(ra.components()).isEqualTo(rb.components()).isEqualTo(t == 0 ? 1 : 3);
                    assertThat(ra.secondMomentVector()).hasSameSizeAs(rb.secondMomentVector());
                }
            }
        }
    }

    /** Seeded noise that remembers every noise vector it adds. */
    static final class RecordingNoise implements org.privadapt.models.dp.NoiseAndSampling {
        final SessionRandomness inner = seeded(7);
        final List<double[]> added = new ArrayList<>();

        @Override
        public boolean bernoulli(double p) {
            return inner.bernoulli(p);
        }

        @Override
        public void addGaussian(double[] v, double sigma) {
            double[] before = v.clone();
            inner.addGaussian(v, sigma);
            double[] noise = new double[v.length];
            for (int i = 0; i < v.length; i++) {
                noise[i] = v[i] - before[i];
            }
            added.add(noise);
        }

        @Override
        public boolean isPrivate() {
            return false;
        }

        @Override
        public String description() {
            return inner.description();
        }
    }

    @Test
    void eachReleaseIsTheExposedQueryOnTheClippedRowsPlusNoise() {
        // ties the harness to the fit: what the fit releases is exactly statistics(clipRows(D), input) + noise, so the
        // sensitivity checked above on those functions is the sensitivity of what is released
        for (CovarianceType type : CovarianceType.values()) {
            DenseMatrix x = with(base(), new double[] {100, -50, 20, 3});
            DpGaussianMixtureEm.Config c = DpGaussianMixtureEm.Config.of(3, type, R, 4, 1.0, 11);
            RecordingNoise noise = new RecordingNoise();
            List<GaussianMixture> inputs = new ArrayList<>();
            List<SufficientStatistics> released = new ArrayList<>();
            DpGaussianMixtureEm.fit(x, c, noise, (i, in, noisy) -> {
                inputs.add(in);
                released.add(noisy);
            });
            assertThat(noise.added).hasSize(3 * 5);
            DenseMatrix z = DpGaussianMixtureEm.clipRows(x, R);
            double[][] pooled = new double[3][2]; // per block: sum of squared noise / scale^2, number of coordinates
            for (int t = 0; t < 5; t++) {
                SufficientStatistics q = t == 0 ? DpGaussianMixtureEm.initialStatistics(z, type) : DpGaussianMixtureEm.statistics(z, inputs.get(t));
                SufficientStatistics r = released.get(t);
                assertQueryPlusNoise(type + " release " + t + " counts", r.countVector(), q.countVector(), noise.added.get(3 * t), 1.0, pooled[0]);
                assertQueryPlusNoise(type + " release " + t + " sums", r.sumVector(), q.sumVector(), noise.added.get(3 * t + 1), R, pooled[1]);
                assertQueryPlusNoise(type + " release " + t + " moments", r.secondMomentVector(), q.secondMomentVector(),
                        noise.added.get(3 * t + 2), R * R, pooled[2]);
            }
            // sigma = 1: each block's noise has std 1, R, R^2 per coordinate (13, 52 and >= 52 coordinates pooled)
            for (int b = 0; b < 3; b++) {
                assertThat(Math.sqrt(pooled[b][0] / pooled[b][1])).as("%s block %d noise std / declared", type, b).isBetween(0.55, 1.45);
            }
        }
    }

    /** released = query + noise; adds the noise's squared size over scale^2 and its length to {@code pool}. */
    static void assertQueryPlusNoise(String what, double[] released, double[] query, double[] noise, double scale, double[] pool) {
        assertThat(noise).as(what).hasSameSizeAs(query);
        for (int i = 0; i < released.length; i++) {
            assertThat(released[i]).as("%s coordinate %d", what, i)
                    .isCloseTo(query[i] + noise[i], within(1e-9 * (1 + Math.abs(query[i]) + Math.abs(noise[i]))));
            pool[0] += noise[i] * noise[i] / (scale * scale);
        }
        pool[1] += noise.length;
    }

    static void assertSameNoise(String what, double[] releasedA, double[] releasedB, double[] queryA, double[] queryB) {
        for (int i = 0; i < releasedA.length; i++) {
            double scale = 1 + Math.abs(releasedA[i]) + Math.abs(queryA[i]);
            assertThat(releasedA[i] - releasedB[i]).as("%s coordinate %d", what, i).isCloseTo(queryA[i] - queryB[i], within(1e-9 * scale));
        }
    }
}
