package org.privadapt.methods.dpot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.ot.BarycentricMapping;
import org.privadapt.math.ot.CostMatrices;
import org.privadapt.math.ot.Coupling;
import org.privadapt.math.ot.GroupLassoOt;
import org.privadapt.math.ot.SinkhornOptions;
import org.privadapt.privacy.noise.RandomBits;

/**
 * The target's step of DPOT ({@link Dpot#adapt}): per released batch, the debiased and normalised cost to the
 * target's projected rows (masked by the target's labels, if any), the group-lasso coupling, and the barycentric
 * images of the source rows in the target's own feature space, with their released labels and diagnostics.
 */
final class DpotTransport {
    private DpotTransport() {
    }

    static Dpot.Transported adapt(DpotRelease r, FeatureMatrix xtRaw, int[] targetLabels, RandomBits bits) {
        FeatureMatrix xt = Dpot.targetRows(xtRaw, r.config());
        if (xt.cols() != r.inputDim()) {
            throw new IllegalArgumentException("the target has " + xt.cols() + " features, the release was made for " + r.inputDim());
        }
        DpotConfig cfg = r.config();
        int l = r.outputDim();
        DenseMatrix xtDense = xt.toDense();
        DenseMatrix xtProj = xt.multiply(r.projection());
        double bias = l * r.rowNoiseStd() * r.rowNoiseStd();
        List<double[]> images = new ArrayList<>();
        List<Integer> labels = new ArrayList<>();
        int zeroMass = 0;
        int nt = xt.rows();
        SinkhornOptions inner = SinkhornOptions.defaults();
        for (DpotRelease.Batch b : r.batches()) {
            if (b.rows().rows() == 0) {
                continue;
            }
            int[] sel = cfg.minibatch() ? DpotOrders.sampleWithoutReplacement(nt, Math.min(nt, cfg.batch()), bits) : DpotOrders.allRows(nt);
            DenseMatrix cost = CostMatrices.squaredEuclidean(b.rows(), xtProj.selectRows(sel));
            normaliseInPlace(cost, bias);
            int[] ys = b.labels();
            if (targetLabels != null) {
                int[] yt = new int[sel.length];
                for (int j = 0; j < sel.length; j++) {
                    yt[j] = targetLabels[sel[j]];
                }
                cost = CostMatrices.maskDifferentLabels(cost, ys, yt);
            }
            Coupling g = GroupLassoOt.solve(CostMatrices.uniform(ys.length), CostMatrices.uniform(sel.length), cost, ys,
                    cfg.regEntropic(), cfg.regGroup(), cfg.outer(), inner);
            DenseMatrix img = BarycentricMapping.map(g.plan(), xtDense.selectRows(sel));
            boolean[] zero = new boolean[ys.length];
            for (int i : BarycentricMapping.zeroMassRows(g.plan())) {
                zero[i] = true;
                zeroMass++;
            }
            for (int i = 0; i < ys.length; i++) {
                if (!zero[i]) {
                    images.add(img.row(i));
                    labels.add(ys[i]);
                }
            }
        }
        DenseMatrix x = DenseMatrix.fromRows(images.toArray(new double[0][]));
        Map<String, Object> diag = new LinkedHashMap<>();
        diag.put("released_rows", r.releasedRows());
        diag.put("batches", r.batches().size());
        diag.put("transported_rows", images.size());
        diag.put("zero_mass_rows", zeroMass);
        diag.put("projection_dim", l);
        diag.put("row_noise_std", r.rowNoiseStd());
        return new Dpot.Transported(x, labels.stream().mapToInt(Integer::intValue).toArray(), diag);
    }

    /**
     * Subtracts the noise bias l sigma^2 (a constant shift: it changes the transport cost estimate, not the coupling)
     * and maps the cost affinely onto [0, 1], so that the regularisation weights mean the same on every problem.
     */
    static void normaliseInPlace(DenseMatrix c, double bias) {
        double[] a = c.data();
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (double v : a) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        double span = hi - lo > 0 ? hi - lo : 1.0;
        for (int i = 0; i < a.length; i++) {
            a[i] = (a[i] - lo) / span;
        }
    }
}
