package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.dp.NeighbourRows.Data;
import org.privadapt.models.dp.NeighbourRows.Pair;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.mechanisms.ObjectivePerturbationCalibration;
import org.privadapt.privacy.mechanisms.ObjectivePerturbationCalibration.Calibrated;
import org.privadapt.privacy.mechanisms.ObjectivePerturbationCalibration.Parameters;

/**
 * The neighbouring-dataset harness (docs/privacy/testing.md) for objective perturbation ({@link ObjectivePerturbation}).
 * Its release has no output sensitivity; what the proof bounds, and what is checked here with the same seeded noise on
 * neighbouring datasets (both relations, the adversarial pairs of {@link OutputPerturbationNeighboursTest}), is:
 * <ol>
 *   <li>the noise is recoverable from the release: {@code b = -grad CE_D(theta*) - Lambda theta*} within the solver's
 *       tolerance (the map b -> theta* the proof inverts);</li>
 *   <li>the shift of that inverse map between D and D', {@code u = grad CE_D(theta) - grad CE_D'(theta)}, has norm
 *       at most {@code sqrt 2 zeta} (add/remove) or {@code 2 sqrt 2 zeta} (replace-one), and {@code b . u} is at most
 *       the proof's Gaussian quantity ({@code max_k g_k - g_y} per differing record);</li>
 *   <li>the Jacobian ratio {@code ln det(H_D + Lambda I) - ln det(H_D' + Lambda I)} is at most eps_det, with equality
 *       at theta = 0 for one record at the bound against none;</li>
 *   <li>sampled over the noise, the exact privacy loss exceeds eps_o no more often than delta_o allows, and a
 *       mechanism with a quarter of the noise visibly does not meet it (the check can fail);</li>
 *   <li>nothing but the parameters' values differs between the releases on D and D'.</li>
 * </ol>
 * The softmax gradient and Hessian are recomputed here row by row, independently of the solver's matrix code.
 */
class ObjectivePerturbationNeighboursTest {
    static final int K = OutputPerturbationNeighboursTest.K;
    static final List<String> NAMES = OutputPerturbationNeighboursTest.NAMES;

    /** theta laid out as W (d x K, column-major) then the K biases; index of (feature j or the bias j = d, class c). */
    static int idx(int d, int j, int c) {
        return j < d ? j + c * d : d * K + c;
    }

    static double[] extended(double[] x, double r) {
        double n = 0;
        for (double v : x) {
            n += v * v;
        }
        n = Math.sqrt(n);
        double f = n > r ? r / n * (1 - 1e-12) : 1; // as ClassStatistics.clipRows
        double[] e = new double[x.length + 1];
        for (int j = 0; j < x.length; j++) {
            e[j] = x[j] * f;
        }
        e[x.length] = 1;
        return e;
    }

    static double[] probabilities(double[] theta, double[] xe, int d) {
        double[] z = new double[K];
        double m = Double.NEGATIVE_INFINITY;
        for (int c = 0; c < K; c++) {
            for (int j = 0; j <= d; j++) {
                z[c] += theta[idx(d, j, c)] * xe[j];
            }
            m = Math.max(m, z[c]);
        }
        double s = 0;
        for (int c = 0; c < K; c++) {
            z[c] = Math.exp(z[c] - m);
            s += z[c];
        }
        for (int c = 0; c < K; c++) {
            z[c] /= s;
        }
        return z;
    }

    /** Sum over the rows of the cross-entropy gradient at theta. */
    static double[] gradient(Data data, double r, double[] theta) {
        int d = data.x()[0].length;
        double[] g = new double[theta.length];
        for (int i = 0; i < data.x().length; i++) {
            double[] xe = extended(data.x()[i], r);
            double[] p = probabilities(theta, xe, d);
            for (int c = 0; c < K; c++) {
                double a = p[c] - (data.y()[i] == c ? 1 : 0);
                for (int j = 0; j <= d; j++) {
                    g[idx(d, j, c)] += a * xe[j];
                }
            }
        }
        return g;
    }

    /** {@code ln det(sum_i H_i(theta) + Lambda I)} by Cholesky. */
    static double logDetHessian(Data data, double r, double[] theta, double lambda, int d) {
        int m = theta.length;
        double[][] h = new double[m][m];
        for (int a = 0; a < m; a++) {
            h[a][a] = lambda;
        }
        for (int i = 0; i < data.x().length; i++) {
            double[] xe = extended(data.x()[i], r);
            double[] p = probabilities(theta, xe, d);
            for (int c = 0; c < K; c++) {
                for (int c2 = 0; c2 < K; c2++) {
                    double mcc = (c == c2 ? p[c] : 0) - p[c] * p[c2];
                    for (int j = 0; j <= d; j++) {
                        for (int j2 = 0; j2 <= d; j2++) {
                            h[idx(d, j, c)][idx(d, j2, c2)] += mcc * xe[j] * xe[j2];
                        }
                    }
                }
            }
        }
        double logDet = 0;
        for (int a = 0; a < m; a++) { // in-place Cholesky
            for (int b = 0; b <= a; b++) {
                double s = h[a][b];
                for (int t = 0; t < b; t++) {
                    s -= h[a][t] * h[b][t];
                }
                if (a == b) {
                    h[a][a] = Math.sqrt(s);
                    logDet += 2 * Math.log(h[a][a]);
                } else {
                    h[a][b] = s / h[b][b];
                }
            }
        }
        return logDet;
    }

    static double norm(double[] a) {
        return OutputPerturbationNeighboursTest.l2(a, new double[a.length]);
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    static double[] minus(double[] a, double[] b) {
        double[] o = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            o[i] = a[i] - b[i];
        }
        return o;
    }

    /** The rows in D but not D' and in D' but not D (by value: the pairs differ in one record). */
    static List<double[]> onlyIn(Data a, Data b) {
        List<double[]> out = new ArrayList<>();
        List<Integer> used = new ArrayList<>();
        for (int i = 0; i < a.x().length; i++) {
            boolean found = false;
            for (int t = 0; t < b.x().length && !found; t++) {
                if (!used.contains(t) && a.y()[i] == b.y()[t] && java.util.Arrays.equals(a.x()[i], b.x()[t])) {
                    used.add(t);
                    found = true;
                }
            }
            if (!found) {
                double[] row = java.util.Arrays.copyOf(a.x()[i], a.x()[i].length + 1);
                row[row.length - 1] = a.y()[i];
                out.add(row);
            }
        }
        return out;
    }

    /** The proof's bound on b . u: for each record only in D, max_k g_k - g_y; for each only in D', g_y - min_k g_k. */
    static double gaussianBound(double[] b, Data dd, Data dPrime, double r, int d) {
        double bound = 0;
        for (int side = 0; side < 2; side++) {
            for (double[] rowy : side == 0 ? onlyIn(dd, dPrime) : onlyIn(dPrime, dd)) {
                double[] xe = extended(java.util.Arrays.copyOf(rowy, d), r);
                int y = (int) rowy[d];
                double[] g = new double[K];
                for (int c = 0; c < K; c++) {
                    for (int j = 0; j <= d; j++) {
                        g[c] += b[idx(d, j, c)] * xe[j];
                    }
                }
                double max = Double.NEGATIVE_INFINITY;
                double min = Double.POSITIVE_INFINITY;
                for (double v : g) {
                    max = Math.max(max, v);
                    min = Math.min(min, v);
                }
                bound += side == 0 ? max - g[y] : g[y] - min;
            }
        }
        return bound;
    }

    static Calibrated calibrated(double eps, double delta, double r, double lambda, int d, NeighbouringRelation rel) {
        return ObjectivePerturbationCalibration.calibrate(eps, delta, K, r, lambda, 1e-9, (d + 1) * K, rel);
    }

    @Test
    void theNoiseIsRecoverableAndTheInverseMapMovesWithinItsBoundsOnEveryPair() {
        StringBuilder report = new StringBuilder();
        for (double[] s : new double[][] {{0.5, 1.0}, {5.0, 2.0}}) { // asked lambda, R
            int d = 3;
            Data base = OutputPerturbationNeighboursTest.base(6, d, s[1], 31);
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                Parameters p = calibrated(2.0, 1e-5, s[1], s[0], d, rel).parameters();
                double zeta = p.zeta();
                double uBound = (rel == NeighbouringRelation.REPLACE_ONE ? 2 : 1) * Math.sqrt(2) * zeta;
                double worst = 0;
                for (Pair pair : OutputPerturbationNeighboursTest.pairs(rel, base, s[1])) {
                    RecordingNoise noiseD = new RecordingNoise(77);
                    RecordingNoise noiseDp = new RecordingNoise(77);
                    Network mD = ObjectivePerturbation.fit(pair.d().matrix(), pair.d().y(), NAMES, p, noiseD);
                    Network mDp = ObjectivePerturbation.fit(pair.dPrime().matrix(), pair.dPrime().y(), NAMES, p, noiseDp);
                    // (5) same draws, same shapes: only the parameter values can differ
                    assertThat(noiseD.added.get(0)).isEqualTo(noiseDp.added.get(0));
                    assertThat(noiseD.calls.size()).isEqualTo(2);
                    assertThat(mDp.sizes()).isEqualTo(mD.sizes());
                    assertThat(mDp.classNames()).isEqualTo(mD.classNames());
                    assertThat(mDp.layers()).isEqualTo(mD.layers());
                    double[] b = noiseD.added.get(0);
                    double[] theta = minus(OutputPerturbationTest.parameters(mD), noiseD.added.get(1));
                    // (1) b recovered from the solution within gamma
                    double[] gD = gradient(pair.d(), s[1], theta);
                    double[] recovered = new double[theta.length];
                    for (int a = 0; a < theta.length; a++) {
                        recovered[a] = -gD[a] - p.lambda() * theta[a];
                    }
                    assertThat(norm(minus(recovered, b))).as("%s %s: recovered noise", rel, pair.name())
                            .isLessThanOrEqualTo(p.gradientTolerance() * (1 + 1e-6) + 1e-9 * norm(b));
                    // (2) the inverse map's shift at the released point
                    double[] u = minus(gD, gradient(pair.dPrime(), s[1], theta));
                    double ratio = norm(u) / uBound;
                    assertThat(ratio).as("%s %s: ||u|| / bound", rel, pair.name()).isLessThanOrEqualTo(1 + 1e-9);
                    assertThat(dot(b, u)).as("%s %s: b.u", rel, pair.name())
                            .isLessThanOrEqualTo(gaussianBound(b, pair.d(), pair.dPrime(), s[1], d) + 1e-9 * norm(b));
                    // (3) the Jacobian ratio at the released point
                    double ld = logDetHessian(pair.d(), s[1], theta, p.lambda(), d)
                            - logDetHessian(pair.dPrime(), s[1], theta, p.lambda(), d);
                    double epsDet = ObjectivePerturbationCalibration.determinantEpsilon(K, zeta, p.lambda());
                    assertThat(ld).as("%s %s: log det ratio", rel, pair.name()).isLessThanOrEqualTo(epsDet + 1e-9);
                    assertThat(-ld).as("%s %s: log det ratio, reverse", rel, pair.name()).isLessThanOrEqualTo(epsDet + 1e-9);
                    worst = Math.max(worst, ratio);
                }
                report.append(String.format("objective perturbation %s lambda %.3g R %s: worst ||u|| / bound %.3f%n", rel, p.lambda(),
                        s[1], worst));
                // not vacuous: the worst pair nearly reaches the bound (observed 0.72 .. 0.999)
                assertThat(worst).as("%s R %s: worst ratio", rel, s[1]).isGreaterThan(0.5);
            }
        }
        System.out.print(report);
    }

    @Test
    void theJacobianBoundIsAttainedByOneRecordAtTheBoundAgainstNone() {
        int d = 2;
        double r = 1.5;
        double lambda = 0.7;
        double zeta = Math.sqrt(r * r + 1);
        Data one = new Data(new double[][] {{r, 0}}, new int[] {1});
        Data none = new Data(new double[0][], new int[0]);
        double[] theta0 = new double[(d + 1) * K];
        double ld = logDetHessian(one, r, theta0, lambda, d) - logDetHessian(none, r, theta0, lambda, d);
        assertThat(ld).isCloseTo(ObjectivePerturbationCalibration.determinantEpsilon(K, zeta, lambda), within(1e-9));
    }

    /**
     * (4) The exact privacy loss {@code L = ln nu(b) - ln nu(b_D'(theta)) + ln det(..D..) - ln det(..D'..)} at the
     * minimiser for sampled noise, on a tiny problem where the Jacobian term matters (n = 2, small Lambda).
     */
    @Test
    void sampledPrivacyLossExceedsEpsilonNoMoreOftenThanDeltaAllows() {
        int d = 2;
        double r = 1.0;
        double eps = 1.0;
        double delta = 0.05; // large, so that a sample of 1500 can see it
        Data base = new Data(new double[][] {{0.6, 0.2}, {-0.3, 0.7}}, new int[] {0, 1});
        List<Pair> pairs = List.of(
                new Pair("record at the bound of a new class removed", base, NeighbourRows.with(base, new double[] {0, r}, 2)),
                new Pair("record at the bound of a new class added", NeighbourRows.with(base, new double[] {0, r}, 2), base),
                new Pair("record against its class removed", base, NeighbourRows.with(base, new double[] {-r, 0}, 0)));
        Calibrated c = calibrated(eps, delta, r, Double.MIN_NORMAL, d, NeighbouringRelation.ADD_OR_REMOVE_ONE);
        Parameters p = c.parameters();
        double epsO = c.guarantee().epsilonDeterminant() + c.guarantee().epsilonGaussian();
        double deltaO = c.guarantee().deltaObjective();
        int draws = 1500;
        for (Pair pair : pairs) {
            double honest = exceedance(pair, p, p.noiseStd(), epsO, draws, 5);
            double weak = exceedance(pair, p, p.noiseStd() / 4, epsO, draws, 5);
            System.out.printf("objective perturbation, %s: P[L > eps_o=%.3f] = %.4f (delta_o %.4f); with a quarter of the noise %.4f%n",
                    pair.name(), epsO, honest, deltaO, weak);
            // binomial sd at delta_o = 0.045 over 1500 draws is 0.005: three of them of slack
            assertThat(honest).as(pair.name()).isLessThanOrEqualTo(deltaO + 3 * Math.sqrt(deltaO * (1 - deltaO) / draws));
        }
        // the check can fail: with a quarter of the noise, removing a record of a new class at the bound exceeds
        // eps_o far more often than delta_o (observed 0.18 against 0.045)
        assertThat(exceedance(pairs.get(0), p, p.noiseStd() / 4, epsO, draws, 5)).isGreaterThan(2 * deltaO);
    }

    /** Fraction of sampled b whose minimiser has privacy loss ln p_D / p_D' above epsO, with noise std sigma. */
    static double exceedance(Pair pair, Parameters p, double sigma, double epsO, int draws, long seed) {
        int d = pair.d().x()[0].length;
        SplittableRandom rnd = new SplittableRandom(seed);
        int over = 0;
        FeatureMatrix rows = ClassStatistics.clipRows(pair.d().matrix(), p.rowBound());
        for (int t = 0; t < draws; t++) {
            double[] b = new double[(d + 1) * K];
            for (int a = 0; a < b.length; a++) {
                b[a] = sigma * gaussian(rnd);
            }
            double[] theta = ObjectivePerturbation.minimiser(rows, pair.d().y(), K, p.lambda(), b, 1e-9 * (1 + norm(b)));
            double[] gDp = gradient(pair.dPrime(), p.rowBound(), theta);
            double[] bDp = new double[b.length];
            for (int a = 0; a < b.length; a++) {
                bDp[a] = -gDp[a] - p.lambda() * theta[a];
            }
            double gaussianPart = (dot(bDp, bDp) - dot(b, b)) / (2 * sigma * sigma);
            double jacobianPart = logDetHessian(pair.d(), p.rowBound(), theta, p.lambda(), d)
                    - logDetHessian(pair.dPrime(), p.rowBound(), theta, p.lambda(), d);
            if (gaussianPart + jacobianPart > epsO) {
                over++;
            }
        }
        return over / (double) draws;
    }

    static double gaussian(SplittableRandom r) {
        double u1 = r.nextDouble();
        double u2 = r.nextDouble();
        return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
    }
}
