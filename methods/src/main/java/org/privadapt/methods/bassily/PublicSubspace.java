package org.privadapt.methods.bassily;

import java.util.Arrays;
import org.privadapt.data.RealTargets;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.math.SymmetricEigen;
import org.privadapt.methods.core.MethodConfig;

/**
 * A row-local reduction of paper 003's regression problem built from public data only (docs/privacy/bassily.md,
 * "Public subspace"): for d much larger than n the noise of a private descent lives in all d coordinates
 * (norm sigma sqrt(d) per step) while the signal does not, so the private methods run in a k-dimensional subspace.
 *
 * <ul>
 *   <li>{@code basis}: a (d + 1) x (k + 1) matrix with orthonormal columns: the top-k right singular vectors of the
 *       public source's scaled rows (the constant column left out), computed through the source's m x m Gram matrix,
 *       and the constant feature's axis e_{d+1} (the intercept). Every row x becomes x V; since V^T V = I,
 *       ||x V|| &lt;= ||x||. By default the projected rows are then divided by {@code rowScale}, a public constant (the
 *       95th percentile of the projected source rows' norms), and the methods clip them to r as every row: the
 *       sensitivities rest on that clip, so they are unchanged.</li>
 *   <li>{@code offset} (optional): a public predictor w_0 (ridge on the public source, in the full space). Each row's
 *       target y becomes (y - clip(x . w_0, -1, 1)) / 2, again in [-1, 1] when y is, and the descent fits that residual
 *       from z = 0 in a ball of radius Lambda: a trust region around the public fit, which z = 0 reproduces exactly
 *       (clipped to [-1, 1]). With a basis, the public prediction clip(x . w_0, -1, 1) is also appended to the
 *       projected row (before the rescaling), so that the descent can rescale the public fit. Predictions are
 *       clip(x . w_0, -1, 1) + 2 x' . z for the projected row x'.</li>
 * </ul>
 *
 * Both maps read only the public source (and w_0, a function of the public source and the public validation rows) and
 * act on each row (x, y) by itself, so neighbouring private datasets map to neighbouring transformed ones and the
 * privacy analysis of the method that runs on them holds unchanged.
 */
public record PublicSubspace(DenseMatrix basis, double rowScale, double[] offset) {
    /** The {@code --param} name. */
    static final String PARAMETER = "public-subspace";
    /** The {@code --param} switching the projected rows' public rescaling off ({@code subspace-rescale=false}). */
    static final String RESCALE = "subspace-rescale";

    /** Without rescaling. */
    public PublicSubspace(DenseMatrix basis, double[] offset) {
        this(basis, 1.0, offset);
    }

    /** {@code basis} null: no projection (the offset alone). */
    public PublicSubspace {
        if (!(rowScale > 0) || !Double.isFinite(rowScale)) {
            throw new IllegalArgumentException("row scale must be a positive number, got " + rowScale);
        }
        if (offset != null && basis != null && offset.length != basis.rows()) {
            throw new IllegalArgumentException("offset has " + offset.length + " coordinates, the basis " + basis.rows());
        }
    }

    /** k, the number of principal directions (the basis has k + 1 columns with the intercept's); 0 without a basis. */
    public int k() {
        return basis == null ? 0 : basis.cols() - 1;
    }

    /**
     * The basis from the public source's scaled rows {@code xSource} (last column the constant feature): the right
     * singular vectors of its first d columns for the k largest singular values (fewer when the source's rank is
     * smaller), then e_{d+1}; re-orthonormalised (modified Gram-Schmidt) so that V^T V = I to rounding.
     */
    public static DenseMatrix basis(DenseMatrix xSource, int k) {
        int m = xSource.rows();
        int dAll = xSource.cols();
        int d = dAll - 1;
        if (k < 1) {
            throw new IllegalArgumentException("public-subspace k must be >= 1, got " + k);
        }
        // the features without the constant column: a prefix of the column-major data
        DenseMatrix xf = new DenseMatrix(m, d, Arrays.copyOf(xSource.data(), m * d));
        DenseMatrix gram = LinAlg.multiplyTransB(xf, xf); // m x m
        SymmetricEigen eig = LinAlg.eigh(gram.symmetrized());
        double top = Math.max(eig.maxValue(), 0);
        int kk = 0;
        while (kk < Math.min(k, m) && eig.value(m - 1 - kk) > 1e-10 * top && top > 0) {
            kk++;
        }
        DenseMatrix u = eig.topVectors(kk); // m x kk
        DenseMatrix v = kk == 0 ? DenseMatrix.zeros(d, 0) : LinAlg.multiplyTransA(xf, u); // d x kk, column j = s_j v_j
        double[] out = new double[dAll * (kk + 1)];
        double[] vd = v.data();
        for (int j = 0; j < kk; j++) {
            System.arraycopy(vd, j * d, out, j * dAll, d); // last coordinate stays 0
        }
        out[kk * dAll + d] = 1.0;
        orthonormalise(out, dAll, kk + 1);
        return new DenseMatrix(dAll, kk + 1, out);
    }

    /** Modified Gram-Schmidt on the columns of a column-major rows x cols array, in place. */
    static void orthonormalise(double[] a, int rows, int cols) {
        for (int j = 0; j < cols; j++) {
            int oj = j * rows;
            for (int i = 0; i < j; i++) {
                int oi = i * rows;
                double dot = 0;
                for (int r = 0; r < rows; r++) {
                    dot += a[oi + r] * a[oj + r];
                }
                for (int r = 0; r < rows; r++) {
                    a[oj + r] -= dot * a[oi + r];
                }
            }
            double norm = 0;
            for (int r = 0; r < rows; r++) {
                norm += a[oj + r] * a[oj + r];
            }
            norm = Math.sqrt(norm);
            if (!(norm > 0)) {
                throw new IllegalStateException("public subspace: column " + j + " vanished");
            }
            for (int r = 0; r < rows; r++) {
                a[oj + r] /= norm;
            }
        }
    }

    /**
     * k from {@code --param public-subspace}: an integer >= 1, 0 or {@code off} for none, or {@code auto} (the
     * default): floor(n / 10) principal directions (about ten private rows per fitted coefficient, the usual rule
     * for least squares), capped at m - 1, and only when the scaled rows have more coordinates than the private
     * part has rows (d + 1 > n); 0 otherwise. It reads only public numbers: d, n (public under replace-one), m.
     */
    public static int chooseK(MethodConfig c, int dimensions, int n, int m) {
        String v = c.params().getOrDefault(PARAMETER, "auto").trim();
        if (v.equals("auto")) {
            return dimensions > n ? Math.max(1, Math.min(m - 1, n / 10)) : 0;
        }
        if (v.equals("off")) {
            return 0;
        }
        int k;
        try {
            k = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("public-subspace must be auto, off or an integer >= 0, got '" + v + "'");
        }
        if (k < 0) {
            throw new IllegalArgumentException("public-subspace must be auto, off or an integer >= 0, got " + k);
        }
        return k;
    }

    /**
     * The rows in the subspace: (x V, clip(x . w_0, -1, 1)) / rowScale, the last coordinate only with an offset (the
     * public fit's own prediction as a feature, so that the descent can also rescale the public fit on the target).
     */
    public DenseMatrix project(DenseMatrix x) {
        if (basis == null) {
            return x;
        }
        DenseMatrix p = LinAlg.multiply(x, basis);
        if (offset != null) {
            int n = p.rows();
            int c = p.cols();
            double[] data = Arrays.copyOf(p.data(), n * (c + 1));
            System.arraycopy(offsets(x), 0, data, n * c, n);
            p = new DenseMatrix(n, c + 1, data);
        }
        return rowScale == 1.0 ? p : p.scale(1.0 / rowScale);
    }

    /** The number of coordinates of a projected row. */
    public int dimension(int d) {
        return basis == null ? d : basis.cols() + (offset != null ? 1 : 0);
    }

    /** The same maps with the public row scale of {@link #rowScale(DenseMatrix)} on the source's rows. */
    public PublicSubspace rescaledOn(DenseMatrix xSource) {
        PublicSubspace unit = new PublicSubspace(basis, 1.0, offset);
        return new PublicSubspace(basis, rowScale(unit.project(xSource)), offset);
    }

    /**
     * The public rescaling constant for projected rows: the 95th percentile of the projected source
     * rows' norms (as the protocol's own scaling, {@link SupervisedProtocol.Scaling}), so that most projected rows use
     * the row bound r = 1 again instead of the fraction of it the top directions keep; 1 when that is not below 1.
     */
    public static double rowScale(DenseMatrix projectedSource) {
        double[] sq = projectedSource.rowSquaredNorms();
        for (int i = 0; i < sq.length; i++) {
            sq[i] = Math.sqrt(sq[i]);
        }
        Arrays.sort(sq);
        double c = sq[Math.min(sq.length - 1, (int) Math.floor(0.95 * sq.length))];
        return c > 0 && c < 1 ? c : 1.0;
    }

    /** clip(x . w_0, -1, 1) per row (zeros without an offset). */
    public double[] offsets(DenseMatrix x) {
        double[] o = offset == null ? new double[x.rows()] : LinAlg.multiply(x, offset);
        for (int i = 0; i < o.length; i++) {
            o[i] = Math.max(-1, Math.min(1, o[i]));
        }
        return o;
    }

    /** The transformed targets: y itself without an offset, else (y - clip(x . w_0, -1, 1)) / 2. */
    public double[] targets(DenseMatrix x, double[] y) {
        if (offset == null) {
            return y.clone();
        }
        double[] o = offsets(x);
        double[] out = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            out[i] = (y[i] - o[i]) / 2;
        }
        return out;
    }

    /** Predictions (in the protocol's scaled units) for the original scaled rows x with subspace weights z. */
    public double[] predict(DenseMatrix x, double[] z) {
        double[] p = LinAlg.multiply(project(x), z);
        if (offset == null) {
            return p;
        }
        double[] o = offsets(x);
        for (int i = 0; i < p.length; i++) {
            p[i] = o[i] + 2 * p[i];
        }
        return p;
    }

    /**
     * The protocol with every part mapped: rows projected, regression targets transformed (test targets kept: only the
     * predictions mapped back by {@link #predict} are scored against them).
     */
    public SupervisedProtocol apply(SupervisedProtocol p) {
        boolean here = p.xTrain() != null; // else the private part is elsewhere: mapped row by row where it is
        return new SupervisedProtocol(project(p.xSource()), real(p.xSource(), p.ySource()), here ? project(p.xTrain()) : null,
                here ? real(p.xTrain(), p.yTrain()) : null, project(p.xValidation()), real(p.xValidation(), p.yValidation()),
                project(p.xTest()), p.yTest(), p.scaling(), p.testRows(), p.n());
    }

    private RealTargets real(DenseMatrix x, org.privadapt.data.Labels y) {
        RealTargets r = (RealTargets) y;
        return new RealTargets(targets(x, r.values()), r.name());
    }
}
