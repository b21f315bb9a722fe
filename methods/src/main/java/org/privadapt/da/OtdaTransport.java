package org.privadapt.da;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.ot.BarycentricMapping;
import org.privadapt.math.ot.CostMatrices;
import org.privadapt.math.ot.Coupling;
import org.privadapt.math.ot.GroupLassoOt;
import org.privadapt.math.ot.Sinkhorn;
import org.privadapt.math.ot.SinkhornOptions;

/**
 * Optimal-transport domain adaptation (Courty et al., TPAMI 2017) as an estimator, in the manner of POT's
 * {@code ot.da.SinkhornTransport} / {@code SinkhornLpl1Transport}: {@link #fit} computes the entropic coupling of the
 * source and target rows (squared Euclidean cost scaled to [0, 1]; with source labels, the class-based group-lasso
 * term of OTDA), {@link #transform} returns the barycentric images of the fitted source rows in the target domain.
 * Uniform weights. Non-private.
 */
public final class OtdaTransport {
    private final double regE;
    private final double regG;
    private Coupling coupling;
    private DenseMatrix images;
    private DenseMatrix fittedSource;

    /** Entropic regularisation 0.01 and group-lasso 0.1 (the paper's values; POT's defaults differ). */
    public OtdaTransport() {
        this(0.01, 0.1);
    }

    /**
     * @param regE entropic regularisation, > 0 (relative to the cost scaled to max 1)
     * @param regG class-based group-lasso weight, >= 0; used only when {@link #fit(double[][], int[], double[][])} is
     *             given source labels
     */
    public OtdaTransport(double regE, double regG) {
        if (!(regE > 0) || !(regG >= 0)) {
            throw new IllegalArgumentException("need regE > 0 and regG >= 0, got " + regE + ", " + regG);
        }
        this.regE = regE;
        this.regG = regG;
    }

    /** Entropic OT (Sinkhorn) between the rows, without labels. */
    public OtdaTransport fit(double[][] xs, double[][] xt) {
        return fit(xs, null, xt);
    }

    /** With source labels (codes 0..k-1): group-lasso OT, mass of a target row drawn from one class. */
    public OtdaTransport fit(double[][] xs, int[] ys, double[][] xt) {
        DenseMatrix s = Arrays2.matrix(xs, "source");
        DenseMatrix t = Arrays2.matrix(xt, "target");
        Arrays2.sameWidth(s, t, "OTDA");
        if (ys != null && ys.length != s.rows()) {
            throw new IllegalArgumentException(ys.length + " labels for " + s.rows() + " source rows");
        }
        DenseMatrix cost = CostMatrices.squaredEuclidean(s, t);
        double max = cost.maxAbs();
        if (max > 0) {
            cost.scaleInPlace(1.0 / max);
        }
        double[] a = CostMatrices.uniform(s.rows());
        double[] b = CostMatrices.uniform(t.rows());
        coupling = ys == null || regG == 0 ? Sinkhorn.solve(a, b, cost, regE, SinkhornOptions.defaults())
                : GroupLassoOt.solve(a, b, cost, ys, regE, regG, 10, SinkhornOptions.defaults());
        images = BarycentricMapping.map(coupling.plan(), t);
        fittedSource = s;
        return this;
    }

    /**
     * The barycentric images of the fitted source rows ({@code n_s x d}). Only the rows given to {@link #fit} can be
     * transported (the coupling is defined on them); {@code xs} must be those rows.
     */
    public double[][] transform(double[][] xs) {
        Arrays2.fitted(images, "OtdaTransport");
        DenseMatrix s = Arrays2.matrix(xs, "source");
        if (s.rows() != fittedSource.rows() || s.cols() != fittedSource.cols()
                || !java.util.Arrays.equals(s.data(), fittedSource.data())) {
            throw new IllegalArgumentException("OtdaTransport transports the rows it was fitted on; fit on these rows first");
        }
        return Arrays2.rows(images);
    }

    /** The coupling (n_s x n_t; rows sum to 1/n_s, columns to 1/n_t up to the solver's tolerance). */
    public double[][] coupling() {
        Arrays2.fitted(coupling, "OtdaTransport");
        return Arrays2.rows(coupling.plan());
    }

    /** Whether the solver met its tolerance, and its largest marginal violation. */
    public boolean converged() {
        Arrays2.fitted(coupling, "OtdaTransport");
        return coupling.converged();
    }

    public double marginalError() {
        Arrays2.fitted(coupling, "OtdaTransport");
        return coupling.marginalError();
    }
}
