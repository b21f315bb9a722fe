package org.privadapt.models.uda;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

/**
 * Label-free criteria of a labelling of the target's own rows, used by {@code refine=auto} to decide whether a
 * refinement of the received model is kept (docs/privacy/private-learners.md, "The target's refinement"). Every
 * criterion reads the rows and the candidate's predicted classes on them, never a label, and is computed identically
 * for every candidate (from hard predictions: the candidates' scores are not on one scale, e.g. the centroid model
 * scores cosines).
 *
 * <ul>
 *   <li>{@link #balance}: entropy of the predicted-class histogram over log K (1 = every class equally often, 0 = one
 *       class), the "entropy of the mean prediction" term of information maximisation (SHOT, Liang et al. 2020) on
 *       hard predictions: a refinement that collapses the classes lowers it;</li>
 *   <li>{@link #separation}: the share of the spread of the target's L2-normalised rows around their mean that lies
 *       between the predicted classes' means (a cosine between/total ratio, as in Calinski-Harabasz; 0 when the
 *       labelling ignores the rows' geometry, 1 when every class is one point): "do the predicted classes form dense,
 *       separated groups of rows", the assumption of Soft Neighbourhood Density (Saito et al., ICCV 2021) stated
 *       on the rows instead of on a network's features;</li>
 *   <li>{@link #agreement} and {@link #kappa}: how far a candidate's labelling is the received model's labelling
 *       (Cohen's kappa corrects the agreement for what two labellings with these class frequencies would share by
 *       chance): a clustering that carries the received model's classes corrects some of its rows; one that does
 *       not replaces its labelling by an unrelated partition, with kappa near 0.</li>
 * </ul>
 */
public final class RefinementCriteria {
    private RefinementCriteria() {
    }

    /** Predicted-class counts. */
    public static int[] histogram(int[] predicted, int k) {
        int[] counts = new int[k];
        for (int p : predicted) {
            counts[p]++;
        }
        return counts;
    }

    /** Entropy of the predicted-class histogram over log K, in [0, 1] (1 for K = 1 or no rows). */
    public static double balance(int[] predicted, int k) {
        if (k < 2 || predicted.length == 0) {
            return 1.0;
        }
        double h = 0;
        for (int c : histogram(predicted, k)) {
            if (c > 0) {
                double p = (double) c / predicted.length;
                h -= p * Math.log(p);
            }
        }
        return h / Math.log(k);
    }

    /** The share of rows in the most predicted class. */
    public static double maxShare(int[] predicted, int k) {
        int top = 0;
        for (int c : histogram(predicted, k)) {
            top = Math.max(top, c);
        }
        return predicted.length == 0 ? 0.0 : (double) top / predicted.length;
    }

    /** Fraction of rows two labellings give the same class. */
    public static double agreement(int[] a, int[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException(a.length + " vs " + b.length + " predictions");
        }
        int same = 0;
        for (int i = 0; i < a.length; i++) {
            same += a[i] == b[i] ? 1 : 0;
        }
        return a.length == 0 ? 1.0 : (double) same / a.length;
    }

    /**
     * Cohen's kappa of two labellings: (agreement - chance) / (1 - chance), chance = sum_c p_a(c) p_b(c). 1 when they
     * are equal, about 0 when they are unrelated; 1 when both are one and the same constant labelling.
     */
    public static double kappa(int[] a, int[] b, int k) {
        double po = agreement(a, b);
        int[] ha = histogram(a, k);
        int[] hb = histogram(b, k);
        double pe = 0;
        double n = a.length;
        for (int c = 0; c < k; c++) {
            pe += (ha[c] / n) * (hb[c] / n);
        }
        return pe >= 1 ? (po >= 1 ? 1.0 : 0.0) : (po - pe) / (1 - pe);
    }

    /**
     * Between-class share of the spread of the unit rows: {@code sum_c n_c ||m_c - m||^2 / sum_i ||u_i - m||^2},
     * with u_i the L2-normalised rows (zero rows stay zero), m their mean and m_c the mean of the rows predicted c.
     * Invariant to the rows' norms (as the cosine rule of {@link TargetRefinement#centroids}). 0 when the rows do
     * not spread.
     */
    public static double separation(FeatureMatrix rows, int[] predicted, int k) {
        FeatureMatrix unit = TargetRefinement.unitRows(rows);
        int n = unit.rows();
        if (n == 0) {
            return 0.0;
        }
        DenseMatrix onehot = DenseMatrix.zeros(n, k);
        for (int i = 0; i < n; i++) {
            onehot.set(i, predicted[i], 1.0);
        }
        DenseMatrix sums = unit.transposeMultiply(onehot); // d x K
        int[] counts = histogram(predicted, k);
        double[] total = new double[sums.rows()];
        double between = 0;
        for (int c = 0; c < k; c++) {
            double sq = 0;
            for (int j = 0; j < sums.rows(); j++) {
                double v = sums.get(j, c);
                total[j] += v;
                sq += v * v;
            }
            if (counts[c] > 0) {
                between += sq / counts[c];
            }
        }
        double meanSq = 0;
        for (double v : total) {
            meanSq += v * v;
        }
        meanSq /= n;
        double sumSq = 0;
        for (double v : unit.rowSquaredNorms()) {
            sumSq += v;
        }
        double spread = sumSq - meanSq;
        return spread <= 1e-12 * Math.max(1.0, sumSq) ? 0.0 : Math.max(0.0, between - meanSq) / spread;
    }

    /** The criteria of one labelling as diagnostics (rounded to 4 digits), plus its agreement and kappa with a base. */
    public static Map<String, Object> describe(FeatureMatrix rows, int[] predicted, List<String> classNames, int[] base) {
        int k = classNames.size();
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("balance", round(balance(predicted, k)));
        d.put("max_share", round(maxShare(predicted, k)));
        d.put("separation", round(separation(rows, predicted, k)));
        if (base != null) {
            d.put("agreement", round(agreement(predicted, base)));
            d.put("kappa", round(kappa(predicted, base, k)));
        }
        return d;
    }

    static double round(double v) {
        return Math.round(v * 1e4) / 1e4;
    }
}
