package org.privadapt.methods.neighbours;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Dataset;
import org.privadapt.data.Provenance;
import org.privadapt.math.DenseMatrix;

/**
 * Neighbouring datasets for the neighbouring-dataset harness (docs/privacy/testing.md): from one labelled dataset,
 * pairs (D, D') that differ in one record under a relation, chosen both at random and adversarially (rows at the
 * clip bound, opposite extreme rows, a record moved between the first and last class, a record of a class D does
 * not hold, duplicates, the first and the last row). Every release's test runs its mechanism on both datasets of
 * every pair with the same seeded noise and checks what may differ.
 */
public final class Neighbours {
    private Neighbours() {
    }

    /** A labelled dataset as plain rows (features, class codes in 0..classes-1). */
    public record Labelled(double[][] x, int[] y, int classes) {
        public Labelled {
            if (x.length != y.length) {
                throw new IllegalArgumentException(x.length + " rows, " + y.length + " labels");
            }
        }

        public int n() {
            return x.length;
        }

        public int d() {
            return x[0].length;
        }

        public DenseMatrix matrix() {
            return DenseMatrix.fromRows(x);
        }

        public List<String> classNames() {
            List<String> names = new ArrayList<>();
            for (int c = 0; c < classes; c++) {
                names.add("c" + c);
            }
            return names;
        }

        /** As a dataset whose class set is the declared {@code c0 .. c(classes-1)} (also the classes no row holds). */
        public Dataset dataset(String domain) {
            return new Dataset(domain, matrix(), new ClassLabels(y, classNames()), null, Provenance.generated("neighbour harness"));
        }
    }

    /**
     * Two neighbours: for replace-one, row {@code index} of D replaced in D'; for add/remove, D' is D with row
     * {@code index} removed ({@code removed}) or with one row appended (then index = n).
     */
    public record Pair(String kind, Labelled d, Labelled dPrime, int index) {
        @Override
        public String toString() {
            return kind + " (row " + index + ")";
        }
    }

    /**
     * Random data in {@code d} dimensions with {@code classes} declared classes, the last of which no row holds
     * (so that "a record of a new class" is among the neighbours), rows of L2 norm at most {@code bound}.
     */
    public static Labelled random(int n, int d, int classes, double bound, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = classes == 1 ? 0 : i % (classes - 1);
            double norm = 0;
            for (int j = 0; j < d; j++) {
                x[i][j] = r.nextDouble() * 2 - 1 + (j == y[i] % d ? 1.5 : 0);
                norm += x[i][j] * x[i][j];
            }
            double f = bound * (0.3 + 0.7 * r.nextDouble()) / Math.sqrt(norm);
            for (int j = 0; j < d; j++) {
                x[i][j] *= f;
            }
        }
        return new Labelled(x, y, classes);
    }

    /** Replace-one neighbours of {@code base} (rows bounded by {@code bound}): random and adversarial. */
    public static List<Pair> replaceOne(Labelled base, double bound, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = base.n();
        int q = base.classes();
        List<Pair> out = new ArrayList<>();
        double[] plus = axis(base.d(), 0, bound);
        double[] minus = axis(base.d(), 0, -bound);
        for (int t = 0; t < 3; t++) {
            int i = r.nextInt(n);
            out.add(replace("random", base, i, randomRow(base.d(), bound, r), r.nextInt(q)));
        }
        out.add(replace("row at the clip bound", base, r.nextInt(n), plus, base.y()[0]));
        out.add(replace("far beyond the clip bound", base, r.nextInt(n), scale(plus, 1e3), base.y()[0]));
        int i = r.nextInt(n);
        Labelled opposite = withRow(base, i, plus, base.y()[i]);
        out.add(replace("opposite extreme rows", opposite, i, minus, base.y()[i]));
        int first = firstOfClass(base, 0);
        if (first >= 0) {
            out.add(replace("moved from the first class to the last", base, first, base.x()[first], q - 1));
            out.add(replace("moved to the last class, opposite row", withRow(base, first, plus, 0), first, minus, q - 1));
        }
        int lastClassHolder = firstOfClass(base, q - 2 >= 0 ? q - 2 : 0);
        out.add(replace("a record of a class D does not hold", base, lastClassHolder >= 0 ? lastClassHolder : 0, plus, q - 1));
        out.add(replace("duplicate of another row", base, 1 % n, base.x()[0], base.y()[0]));
        out.add(replace("first row", base, 0, minus, q - 1));
        out.add(replace("last row", base, n - 1, plus, 0));
        return out;
    }

    /** Add/remove neighbours of {@code base}: D' one row shorter or longer. */
    public static List<Pair> addRemove(Labelled base, double bound, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = base.n();
        int q = base.classes();
        List<Pair> out = new ArrayList<>();
        out.add(remove("first row removed", base, 0));
        out.add(remove("last row removed", base, n - 1));
        out.add(remove("random row removed", base, r.nextInt(n)));
        out.add(add("row at the clip bound added", base, axis(base.d(), 0, bound), 0));
        out.add(add("row far beyond the clip bound added", base, axis(base.d(), 1 % base.d(), -1e3 * bound), q - 1));
        out.add(add("duplicate added", base, base.x()[0], base.y()[0]));
        out.add(add("record of a class D does not hold added", base, randomRow(base.d(), bound, r), q - 1));
        return out;
    }

    static Pair replace(String kind, Labelled base, int i, double[] row, int label) {
        return new Pair(kind, base, withRow(base, i, row, label), i);
    }

    static Pair remove(String kind, Labelled base, int i) {
        int n = base.n();
        double[][] x = new double[n - 1][];
        int[] y = new int[n - 1];
        for (int a = 0, b = 0; a < n; a++) {
            if (a != i) {
                x[b] = base.x()[a].clone();
                y[b++] = base.y()[a];
            }
        }
        return new Pair(kind, base, new Labelled(x, y, base.classes()), i);
    }

    static Pair add(String kind, Labelled base, double[] row, int label) {
        int n = base.n();
        double[][] x = Arrays.copyOf(base.x(), n + 1);
        int[] y = Arrays.copyOf(base.y(), n + 1);
        x[n] = row.clone();
        y[n] = label;
        return new Pair(kind, base, new Labelled(x, y, base.classes()), n);
    }

    static Labelled withRow(Labelled base, int i, double[] row, int label) {
        double[][] x = new double[base.n()][];
        for (int a = 0; a < x.length; a++) {
            x[a] = base.x()[a].clone();
        }
        int[] y = base.y().clone();
        x[i] = row.clone();
        y[i] = label;
        return new Labelled(x, y, base.classes());
    }

    static int firstOfClass(Labelled b, int c) {
        for (int i = 0; i < b.n(); i++) {
            if (b.y()[i] == c) {
                return i;
            }
        }
        return -1;
    }

    static double[] axis(int d, int j, double v) {
        double[] a = new double[d];
        a[j] = v;
        return a;
    }

    static double[] scale(double[] a, double f) {
        double[] o = a.clone();
        for (int j = 0; j < o.length; j++) {
            o[j] *= f;
        }
        return o;
    }

    static double[] randomRow(int d, double bound, SplittableRandom r) {
        double[] a = new double[d];
        double s = 0;
        for (int j = 0; j < d; j++) {
            a[j] = r.nextDouble() * 2 - 1;
            s += a[j] * a[j];
        }
        return scale(a, bound * r.nextDouble() / Math.sqrt(s));
    }
}
