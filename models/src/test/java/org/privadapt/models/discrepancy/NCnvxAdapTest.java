package org.privadapt.models.discrepancy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

class NCnvxAdapTest {
    /** Three classes; the label depends on the rows through wStar (d x 3); rows in the unit ball; a constant feature. */
    static Object[] data(int n, double[][] wStar, double shift, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int d = wStar.length;
        DenseMatrix x = DenseMatrix.zeros(n, d);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            double[] row = new double[d];
            double norm = 0;
            for (int k = 0; k < d - 1; k++) {
                row[k] = 0.5 * r.nextGaussian() + (k == 0 ? shift : 0);
                norm += row[k] * row[k];
            }
            row[d - 1] = 0.3;
            norm = Math.sqrt(norm + 0.09);
            int best = 0;
            double bestScore = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < 3; c++) {
                double s = 0;
                for (int k = 0; k < d; k++) {
                    s += row[k] / Math.max(1, norm) * wStar[k][c];
                }
                s += 0.3 * r.nextGaussian();
                if (s > bestScore) {
                    bestScore = s;
                    best = c;
                }
            }
            for (int k = 0; k < d; k++) {
                x.set(i, k, row[k] / Math.max(1, norm));
            }
            y[i] = best;
        }
        return new Object[] {x, y};
    }

    static final double[][] SOURCE = {{3, -3, 0}, {0, 2, -2}, {1, 0, -1}, {0, 0, 0}};
    static final double[][] TARGET = {{-3, 3, 0}, {0, 2, -2}, {1, 0, -1}, {0, 0, 0}};

    static NCnvxAdap.Problem problem(int m, int n, double lambda1, double lambda2, double lambdaInf) {
        Object[] s = data(m, SOURCE, 0.3, 1);
        Object[] t = data(n, TARGET, -0.3, 2);
        return new NCnvxAdap.Problem((DenseMatrix) s[0], (int[]) s[1], (DenseMatrix) t[0], (int[]) t[1], 3, 0.05, 0.5,
                lambda1, lambda2, lambdaInf, 20, 5, 1);
    }

    @Test
    void gradientsMatchFiniteDifferences() {
        NCnvxAdap.Problem p = problem(30, 12, 0.7, 0.3, 0.2);
        SplittableRandom r = new SplittableRandom(3);
        DenseMatrix w = DenseMatrix.zeros(4, 3);
        for (int j = 0; j < 12; j++) {
            w.data()[j] = r.nextGaussian();
        }
        double[] u = new double[42];
        for (int i = 0; i < 42; i++) {
            u[i] = p.lower(i) * (1 + 2 * r.nextDouble());
        }
        double[][] priv = NCnvxAdap.privateGradient(p, w, u);
        double[][] pub = NCnvxAdap.publicGradient(p, w, u);
        double[] pen = NCnvxAdap.penaltyGradient(p, u);
        for (int j = 0; j < 12; j++) {
            double h = 1e-6;
            DenseMatrix a = w.copy();
            DenseMatrix b = w.copy();
            a.data()[j] += h;
            b.data()[j] -= h;
            double fd = (NCnvxAdap.objective(p, a, u) - NCnvxAdap.objective(p, b, u)) / (2 * h);
            assertThat(priv[0][j] + pub[0][j]).isCloseTo(fd, Offset.offset(1e-6 * Math.max(1, Math.abs(fd))));
        }
        for (int i = 0; i < 42; i++) {
            double h = 1e-4 * u[i];
            double[] a = u.clone();
            double[] b = u.clone();
            a[i] += h;
            b[i] -= h;
            double fd = (NCnvxAdap.objective(p, w, a) - NCnvxAdap.objective(p, w, b)) / (2 * h);
            double g = (i < 30 ? pub[1][i] : priv[1][i - 30]) + pen[i];
            assertThat(g).isCloseTo(fd, Offset.offset(1e-5 * Math.max(Math.abs(fd), 1e-9) + 1e-14));
        }
    }

    @Test
    void theNoiseFreeDescentIsFeasibleLowersTheObjectiveAndApproachesStationarity() {
        NCnvxAdap.Problem p = problem(200, 40, 0.7, 0, 0);
        double[] u0 = new double[240];
        for (int i = 0; i < 240; i++) {
            u0[i] = p.lower(i);
        }
        double start = NCnvxAdap.objective(p, DenseMatrix.zeros(4, 3), u0);
        NCnvxAdap.Result shortRun = NCnvxAdap.solve(p, new NCnvxAdap.Config(20, 0, 0, false, 1), null, null, Double.NaN);
        NCnvxAdap.Result longRun = NCnvxAdap.solve(p, new NCnvxAdap.Config(2000, 0, 0, false, 1), null, null, Double.NaN);
        assertThat(shortRun.objective()).isLessThan(start);
        assertThat(longRun.objective()).isLessThan(shortRun.objective());
        assertThat(longRun.gradientMapping()).isLessThan(0.05 * shortRun.gradientMapping());
        double norm = 0;
        for (double v : longRun.w().data()) {
            norm += v * v;
        }
        assertThat(Math.sqrt(norm)).isLessThanOrEqualTo(p.lambda() * (1 + 1e-12));
        for (int i = 0; i < 240; i++) {
            assertThat(longRun.u()[i]).isGreaterThanOrEqualTo(p.lower(i));
        }
        // the random iterate is one of 1..T, chosen by the seed alone
        NCnvxAdap.Result a = NCnvxAdap.solve(p, new NCnvxAdap.Config(50, 0, 0, true, 7), null, null, Double.NaN);
        NCnvxAdap.Result b = NCnvxAdap.solve(p, new NCnvxAdap.Config(50, 0, 0, true, 7), null, null, Double.NaN);
        assertThat(a.iterate()).isBetween(1L, 50L).isEqualTo(b.iterate());
    }

    /** The source's label map differs from the target's on the first feature: weighting towards the target helps. */
    @Test
    void aTargetWeightedSolutionBeatsTheSourceAloneOnTheTarget() {
        Object[] s = data(400, SOURCE, 0.3, 1);
        Object[] t = data(60, TARGET, -0.3, 2);
        Object[] test = data(1000, TARGET, -0.3, 3);
        NCnvxAdap.Problem p = new NCnvxAdap.Problem((DenseMatrix) s[0], (int[]) s[1], (DenseMatrix) t[0], (int[]) t[1], 3, 0.05,
                0.2, 0.7, 0, 0, 20, 10, 1);
        NCnvxAdap.Result r = NCnvxAdap.solve(p, new NCnvxAdap.Config(3000, 0, 0, false, 1), null, null, Double.NaN);
        // source alone: alpha close to 1 leaves the target rows almost no weight
        NCnvxAdap.Problem src = new NCnvxAdap.Problem((DenseMatrix) s[0], (int[]) s[1], (DenseMatrix) t[0], (int[]) t[1], 3, 0.05,
                0.999, 0.7, 0, 0, 20, 10, 1);
        NCnvxAdap.Result rs = NCnvxAdap.solve(src, new NCnvxAdap.Config(3000, 0, 0, false, 1), null, null, Double.NaN);
        double accAdapted = accuracy((DenseMatrix) test[0], (int[]) test[1], r.w());
        double accSource = accuracy((DenseMatrix) test[0], (int[]) test[1], rs.w());
        // measured: 0.788 against 0.272 (the source's map is the target's with two classes swapped); stated margin 0.3
        assertThat(accAdapted).isGreaterThan(accSource + 0.3);
    }

    static double accuracy(DenseMatrix x, int[] y, DenseMatrix w) {
        int[] pred = org.privadapt.models.Softmax.argmaxRows(org.privadapt.math.LinAlg.multiply(x, w));
        int ok = 0;
        for (int i = 0; i < y.length; i++) {
            ok += pred[i] == y[i] ? 1 : 0;
        }
        return (double) ok / y.length;
    }

    /** Frozen private weights stay at p0 however large the noise, and the noise on u_priv is then never drawn. */
    @Test
    void frozenPrivateWeightsStayAtTheirReferenceValues() {
        NCnvxAdap.Problem p = problem(100, 30, 0.7, 0, 0);
        int[] draws = new int[1];
        org.privadapt.models.dp.NoiseAndSampling counting = new org.privadapt.models.dp.NoiseAndSampling() {
            final SplittableRandom r = new SplittableRandom(1);

            @Override
            public boolean bernoulli(double q) {
                return r.nextDouble() < q;
            }

            @Override
            public void addGaussian(double[] v, double sigma) {
                draws[0] += v.length;
                for (int i = 0; i < v.length; i++) {
                    v[i] += sigma * r.nextGaussian();
                }
            }

            @Override
            public boolean isPrivate() {
                return false;
            }

            @Override
            public String description() {
                return "test";
            }
        };
        NCnvxAdap.Result r = NCnvxAdap.solve(p, new NCnvxAdap.Config(40, 0.5, 1e6, false, 1, true), counting, null, Double.NaN);
        for (int j = 0; j < 30; j++) {
            assertThat(r.u()[100 + j]).isEqualTo(p.lower(100 + j));
        }
        assertThat(draws[0]).isEqualTo(40 * 12); // grad_W only: 4 x 3 coordinates per step
    }

    /** Harness check: replacing one private row moves the private gradient by at most s1 (W) and s2 (u_priv). */
    @Test
    void thePrivateGradientMovesByAtMostItsSensitivities() {
        NCnvxAdap.Problem base = problem(20, 15, 0.7, 0, 0);
        SplittableRandom r = new SplittableRandom(11);
        double worst1 = 0;
        double worst2 = 0;
        for (int trial = 0; trial < 300; trial++) {
            DenseMatrix x2 = base.xPriv().copy();
            int[] y2 = base.yPriv().clone();
            int j = r.nextInt(15);
            // a row on the unit sphere, its label the worst for the current W half the time
            double[] row = new double[4];
            double nn = 0;
            for (int k = 0; k < 4; k++) {
                row[k] = r.nextGaussian();
                nn += row[k] * row[k];
            }
            for (int k = 0; k < 4; k++) {
                x2.set(j, k, row[k] / Math.sqrt(nn));
            }
            y2[j] = r.nextInt(3);
            NCnvxAdap.Problem nb = new NCnvxAdap.Problem(base.xPub(), base.yPub(), x2, y2, 3, base.d(), base.alpha(), base.lambda1(),
                    base.lambda2(), base.lambdaInf(), base.mu(), base.lambda(), base.r());
            DenseMatrix w = DenseMatrix.zeros(4, 3);
            for (int k = 0; k < 12; k++) {
                w.data()[k] = r.nextGaussian();
            }
            NCnvxAdap.project(w, base.lambda()); // on or inside the ball
            if (trial % 2 == 0) {
                double[] a = w.data();
                double s = 0;
                for (double v : a) {
                    s += v * v;
                }
                for (int k = 0; k < a.length; k++) {
                    a[k] *= base.lambda() / Math.sqrt(s);
                }
            }
            double[] u = new double[35];
            for (int i = 0; i < 35; i++) {
                u[i] = base.lower(i) * (trial % 3 == 0 ? 1 : 1 + r.nextDouble());
            }
            double[][] g1 = NCnvxAdap.privateGradient(base, w, u);
            double[][] g2 = NCnvxAdap.privateGradient(nb, w, u);
            double d1 = 0;
            for (int k = 0; k < g1[0].length; k++) {
                d1 += (g1[0][k] - g2[0][k]) * (g1[0][k] - g2[0][k]);
            }
            double d2 = 0;
            for (int k = 0; k < g1[1].length; k++) {
                d2 += (g1[1][k] - g2[1][k]) * (g1[1][k] - g2[1][k]);
            }
            worst1 = Math.max(worst1, Math.sqrt(d1) / base.s1());
            worst2 = Math.max(worst2, Math.sqrt(d2) / base.s2());
        }
        assertThat(worst1).isLessThanOrEqualTo(1 + 1e-12);
        assertThat(worst2).isLessThanOrEqualTo(1 + 1e-12);
        // measured worst ratios 0.68 (W) and 0.59 (u): the bounds are not vacuous
        assertThat(worst1).isGreaterThan(0.5);
        assertThat(worst2).isGreaterThan(0.4);
    }

    @Test
    void theLogisticDiscrepancyIsZeroForASampleWithItselfAndGrowsWhenLabelsDisagree() {
        Object[] s = data(150, SOURCE, 0, 4);
        Object[] t = data(150, TARGET, 0, 5);
        DenseMatrix x = (DenseMatrix) s[0];
        int[] y = (int[]) s[1];
        assertThat(LogisticDiscrepancy.estimate(x, y, x, y, 3, 5, 1)).isCloseTo(0, Offset.offset(1e-12));
        // the same inputs, labels from the other map
        int[] other = new int[150];
        int[] ty = (int[]) data(150, TARGET, 0, 4)[1];
        System.arraycopy(ty, 0, other, 0, 150);
        double dOther = LogisticDiscrepancy.estimate(x, y, x, other, 3, 5, 1);
        double dNear = LogisticDiscrepancy.estimate(x, y, (DenseMatrix) data(150, SOURCE, 0, 6)[0], (int[]) data(150, SOURCE, 0, 6)[1], 3, 5, 1);
        assertThat(dOther).isGreaterThan(3 * dNear);
        // symmetric in its arguments (both signs are searched)
        assertThat(LogisticDiscrepancy.estimate(x, other, x, y, 3, 5, 1)).isCloseTo(dOther, Offset.offset(0.05 * dOther));
    }
}
