package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.privadapt.models.dp.NeighbourRows.replaced;
import static org.privadapt.models.dp.NeighbourRows.with;
import static org.privadapt.models.dp.NeighbourRows.without;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dp.NeighbourRows.Data;
import org.privadapt.models.dp.NeighbourRows.Pair;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;

/**
 * The neighbouring-dataset harness (docs/privacy/testing.md) for output perturbation ({@link OutputPerturbation}),
 * at the models level: the released model is the minimiser plus noise, so (a) the minimisers on neighbouring datasets
 * (both relations; random and adversarial pairs: rows at and far beyond the clip bound, opposite rows, a record moved
 * between classes, a record of a class D does not hold) differ in L2 over all parameters by at most
 * {@code Config.sensitivity(relation)}, and the bound is not vacuous (the observed ratio is reported; on a tiny dataset
 * the worst pair reaches a stated fraction of it); (b) with the same seeded noise the released models differ by
 * exactly the minimisers' difference, and nothing else about them differs.
 */
class OutputPerturbationNeighboursTest {
    static final int K = 3;  // class 2 is declared but held by no row of the base datasets
    static final List<String> NAMES = List.of("c0", "c1", "c2");

    /** n rows in R^d of classes 0 and 1 with norms up to 1.5 R. */
    static Data base(int n, int d, double r, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double[][] x = new double[n][];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
            x[i] = randomRow(d, 1.5 * r, rnd);
            x[i][y[i] % d] += 0.5 * r;
        }
        return new Data(x, y);
    }

    static double[] randomRow(int d, double bound, SplittableRandom r) {
        double[] a = new double[d];
        double s = 0;
        for (int j = 0; j < d; j++) {
            a[j] = 2 * r.nextDouble() - 1;
            s += a[j] * a[j];
        }
        double f = bound * r.nextDouble() / Math.sqrt(s);
        for (int j = 0; j < d; j++) {
            a[j] *= f;
        }
        return a;
    }

    static double[] axis(int d, int j, double v) {
        double[] a = new double[d];
        a[j] = v;
        return a;
    }

    static List<Pair> addRemove(Data b, double r, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int n = b.x().length;
        int d = b.x()[0].length;
        List<Pair> p = new ArrayList<>();
        p.add(new Pair("first row removed", b, without(b, 0)));
        p.add(new Pair("last row removed", b, without(b, n - 1)));
        p.add(new Pair("random row removed", b, without(b, rnd.nextInt(n))));
        p.add(new Pair("row at the clip bound added", b, with(b, axis(d, 0, r), 0)));
        p.add(new Pair("row at the clip bound added against its class", b, with(b, axis(d, 0, -r), 0)));
        p.add(new Pair("row far beyond the clip bound added", b, with(b, axis(d, d - 1, -1e3 * r), 1)));
        p.add(new Pair("duplicate added", b, with(b, b.x()[0], b.y()[0])));
        p.add(new Pair("zero row added", b, with(b, new double[d], 1)));
        p.add(new Pair("record of a class D does not hold added (at the bound)", b, with(b, axis(d, 1 % d, r), K - 1)));
        p.add(new Pair("random record of a new class added", b, with(b, randomRow(d, r, rnd), K - 1)));
        return p;
    }

    static List<Pair> replaceOne(Data b, double r, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int n = b.x().length;
        int d = b.x()[0].length;
        List<Pair> p = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            p.add(new Pair("random replacement", b, replaced(b, rnd.nextInt(n), randomRow(d, 1.5 * r, rnd), rnd.nextInt(K))));
        }
        p.add(new Pair("row at the clip bound", b, replaced(b, 0, axis(d, 0, r), 0)));
        p.add(new Pair("row far beyond the clip bound", b, replaced(b, 1, axis(d, 0, 1e3 * r), 1)));
        Data plus = replaced(b, 0, axis(d, 0, r), 0);
        p.add(new Pair("opposite extreme rows, same class", plus, replaced(plus, 0, axis(d, 0, -r), 0)));
        p.add(new Pair("same row at the bound moved to another class", plus, replaced(plus, 0, axis(d, 0, r), 1)));
        p.add(new Pair("moved to the last class, opposite row", plus, replaced(plus, 0, axis(d, 0, -r), K - 1)));
        p.add(new Pair("moved from the first class to the last", b, replaced(b, 0, b.x()[0], K - 1)));
        p.add(new Pair("a record of a class D does not hold", b, replaced(b, 1, axis(d, 1 % d, r), K - 1)));
        p.add(new Pair("duplicate of another row", b, replaced(b, 1, b.x()[0], b.y()[0])));
        p.add(new Pair("last row", b, replaced(b, n - 1, axis(d, 0, -r), 0)));
        return p;
    }

    static double[] parameters(Network m) {
        return OutputPerturbationTest.parameters(m);
    }

    static double l2(double[] a, double[] b) {
        assertThat(a).hasSameSizeAs(b);
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s);
    }

    static List<Pair> pairs(NeighbouringRelation rel, Data b, double r) {
        return rel == NeighbouringRelation.REPLACE_ONE ? replaceOne(b, r, 3) : addRemove(b, r, 4);
    }

    /** The largest ratio ||theta - theta'|| / sensitivity over the pairs (asserting each is <= 1). */
    static double worstRatio(NeighbouringRelation rel, Data b, OutputPerturbation.Config c, StringBuilder report) {
        double worst = 0;
        for (Pair p : pairs(rel, b, c.rowBound())) {
            double[] ta = parameters(OutputPerturbation.minimiser(p.d().matrix(), p.d().y(), NAMES, c));
            double[] tb = parameters(OutputPerturbation.minimiser(p.dPrime().matrix(), p.dPrime().y(), NAMES, c));
            double ratio = l2(ta, tb) / c.sensitivity(rel);
            report.append(String.format("%s lambda=%s R=%s n=%d %s: %.4f%n", rel, c.lambda(), c.rowBound(), b.x().length, p.name(), ratio));
            assertThat(ratio).as("%s, lambda %s, R %s, %s: ||theta - theta'|| / sensitivity", rel, c.lambda(), c.rowBound(), p.name())
                    .isLessThanOrEqualTo(1 + 1e-9);
            worst = Math.max(worst, ratio);
        }
        return worst;
    }

    @Test
    void minimisersOfNeighboursDifferByAtMostTheSensitivity() {
        // every pair of both relations within the bound, for weak and strong regularisation and small and large R,
        // on a tiny (n = 4) and a small (n = 30) dataset; the worst ratio per setting is reported on stdout
        StringBuilder report = new StringBuilder();
        double[][] settings = {{0.1, 1.0}, {1.0, 1.0}, {10.0, 3.0}, {0.3, 0.5}}; // lambda, R
        for (double[] s : settings) {
            OutputPerturbation.Config c = new OutputPerturbation.Config(s[0], s[1], 1e-6, 3000);
            for (int n : new int[] {4, 30}) {
                Data b = base(n, 3, s[1], 10 + n);
                for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                    double w = worstRatio(rel, b, c, new StringBuilder());
                    report.append(String.format("output perturbation, %s, lambda %s, R %s, n %d: worst ||theta - theta'|| / sensitivity %.4f%n",
                            rel, s[0], s[1], n, w));
                    // not vacuous: every setting has a pair at >= 5 % of the bound (observed 9 % .. 43 %)
                    assertThat(w).as("%s, lambda %s, R %s, n %d: worst ratio", rel, s[0], s[1], n).isGreaterThan(0.05);
                }
            }
        }
        System.out.print(report);
    }

    @Test
    void onATinyDatasetWithSmallLambdaTheAdversarialPairsReachAtLeastTenPercentOfTheBound() {
        // lambda = 0.1, R = 1, n = 4: a record of a class D does not hold, at the clip bound, added (observed 15 %);
        // under replace-one a row far beyond the bound replacing one of the other class (observed 11 %)
        OutputPerturbation.Config c = new OutputPerturbation.Config(0.1, 1.0, 1e-6, 3000);
        Data b = base(4, 3, 1.0, 14);
        StringBuilder report = new StringBuilder();
        assertThat(worstRatio(NeighbouringRelation.ADD_OR_REMOVE_ONE, b, c, report)).isGreaterThan(0.10);
        assertThat(worstRatio(NeighbouringRelation.REPLACE_ONE, b, c, report)).isGreaterThan(0.10);
        System.out.print(report);
    }

    @Test
    void underStrongRegularisationTheDifferenceMatchesItsFirstOrderValue() {
        // lambda -> infinity: theta* ~ -grad(0) / lambda, so adding (x, c) at the bound moves theta* by
        // ||(1/K - e_c) [x; 1]|| / lambda = sqrt((K - 1) / K) sqrt(R^2 + 1) / lambda, against the declared
        // sqrt 2 sqrt(R^2 + 1) / lambda: a ratio sqrt((K - 1) / (2K)), 0.577 for K = 3 and 0.671 for K = 10
        for (int k : new int[] {3, 10}) {
            List<String> names = new ArrayList<>();
            for (int c = 0; c < k; c++) {
                names.add("c" + c);
            }
            double r = 2.0;
            OutputPerturbation.Config cfg = new OutputPerturbation.Config(1e5, r, 1e-9, 1000);
            Data d = new Data(new double[][] {{0.3, -0.2, 0.1}, {-0.1, 0.4, 0.2}}, new int[] {0, 1});
            Data dPrime = with(d, axis(3, 2, r), k - 1);
            double diff = l2(parameters(OutputPerturbation.minimiser(d.matrix(), d.y(), names, cfg)),
                    parameters(OutputPerturbation.minimiser(dPrime.matrix(), dPrime.y(), names, cfg)));
            double ratio = diff / cfg.sensitivity(NeighbouringRelation.ADD_OR_REMOVE_ONE);
            assertThat(ratio).as("K = %d", k).isCloseTo(Math.sqrt((k - 1) / (2.0 * k)), within(2e-3)).isLessThanOrEqualTo(1.0);
            // a declared sensitivity half as large (L / (2 Lambda)) would be exceeded by this pair
            assertThat(diff).isGreaterThan(0.5 * cfg.lipschitz() / cfg.lambda());
            System.out.printf("output perturbation, lambda 1e5, K %d: ||theta - theta'|| / sensitivity %.4f%n", k, ratio);
        }
    }

    @Test
    void withTheSameSeededNoiseTheReleasesDifferExactlyByTheMinimisersAndNothingElseDiffers() {
        OutputPerturbation.Config c = new OutputPerturbation.Config(0.5, 1.0, 1e-6, 3000);
        Data b = base(10, 3, 1.0, 20);
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            for (Pair p : pairs(rel, b, c.rowBound())) {
                String what = rel + ", " + p.name();
                Network ea = OutputPerturbation.minimiser(p.d().matrix(), p.d().y(), NAMES, c);
                Network eb = OutputPerturbation.minimiser(p.dPrime().matrix(), p.dPrime().y(), NAMES, c);
                Network ra = OutputPerturbation.fit(p.d().matrix(), p.d().y(), NAMES, c, 2.0, rel, new SeededRandomness(31));
                Network rb = OutputPerturbation.fit(p.dPrime().matrix(), p.dPrime().y(), NAMES, c, 2.0, rel, new SeededRandomness(31));
                double[] a = parameters(ra);
                double[] bb = parameters(rb);
                double[] qa = parameters(ea);
                double[] qb = parameters(eb);
                for (int t = 0; t < a.length; t++) {
                    assertThat(a[t] - bb[t]).as("%s: parameter %d", what, t)
                            .isCloseTo(qa[t] - qb[t], within(1e-9 * (1 + Math.abs(a[t]) + Math.abs(qa[t]))));
                }
                assertThat(l2(a, bb)).as(what).isLessThanOrEqualTo(c.sensitivity(rel) * (1 + 1e-9));
                // nothing but the DP parameters differs: the layout, the classes (declared, also one no row holds),
                // the activation
                assertThat(ra.sizes()).as(what).containsExactly(rb.sizes()).containsExactly(3, K);
                assertThat(ra.classNames()).as(what).isEqualTo(rb.classNames()).isEqualTo(NAMES);
                assertThat(ra.layers()).isEqualTo(rb.layers()).isEqualTo(1);
                assertThat(ra.hiddenActivation()).isEqualTo(rb.hiddenActivation());
                assertThat(ra.parameterCount()).isEqualTo(rb.parameterCount());
            }
        }
    }
}
