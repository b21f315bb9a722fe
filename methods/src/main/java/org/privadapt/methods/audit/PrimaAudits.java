package org.privadapt.methods.audit;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.privadapt.data.Dataset;
import org.privadapt.data.Provenance;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.SecondMoments;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;

/**
 * The PRIMA/PRISA target's release (paper 000; docs/privacy/prima.md) through {@link Prima#noisyMoments}, the code
 * {@code Prima.release} runs before its post-processing: a fresh session at the claimed (epsilon, delta) per output,
 * the plan, the calibration and the Gaussian noise on the moment vector (block Gram upper triangle, c * sums, c^2 *
 * count). PRISA releases the same moments (its SA settings only change the post-processing), so one audit covers both.
 * The single-block partition: forward selection adds a second Gaussian release whose precision the plan takes from the
 * same total (the composed multiplier is the same), but its partition would then vary between outputs.
 */
final class PrimaAudits {
    private PrimaAudits() {
    }

    static final AuditedRelease TARGET = new AuditedRelease() {
        @Override
        public String name() {
            return "prima-target";
        }

        @Override
        public String design() {
            return "moments of clipped rows; D' adds a row at the bound (add/remove) or turns R e1 into R e2 (replace-one); "
                    + "fitted linear test";
        }

        @Override
        public Set<NeighbouringRelation> relations() {
            return EnumSet.allOf(NeighbouringRelation.class);
        }

        @Override
        public Prepared prepare(double epsilon, double delta, NeighbouringRelation relation, double noiseScale) {
            if (noiseScale != 1.0) {
                throw new IllegalArgumentException("prima-target has no injected-bug mode");
            }
            PrimaConfig cfg = PrimaConfig.prima(PrimaConfig.Adaptation.CORAL).with(PrimaConfig.Partitioning.SINGLE, false);
            double r = cfg.rowBound();
            boolean add = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE;
            // add/remove: D = {0}, D' = {0, R e1} (every coordinate group moves: R^2, cR, c^2); replace-one: D = {R e1, 0},
            // D' = {R e2, 0} (the Gram by sqrt 2 R^2, the sums by sqrt 2 cR: 97 % of the sensitivity at the defaults)
            Dataset d = dataset(add ? new double[][] {{0, 0}} : new double[][] {{r, 0}, {0, 0}});
            Dataset dPrime = dataset(add ? new double[][] {{0, 0}, {r, 0}} : new double[][] {{0, r}, {0, 0}});
            double c = cfg.momentWeight() * r;
            return Prepared.vector((neighbour, noise) -> {
                PrivacySession s = new PrivacySession("target", new PrivacyBudget(epsilon, delta), relation, noise, null);
                try {
                    SecondMoments m = Prima.noisyMoments(neighbour ? dPrime : d, cfg, "prima", 1, s).moments();
                    return vector(m, c);
                } catch (Exception e) {
                    throw new IllegalStateException("prima-target audit: " + e.getMessage(), e);
                }
            }, epsilon);
        }
    };

    static Dataset dataset(double[][] rows) {
        return new Dataset("audit", DenseMatrix.fromRows(rows), null, null, Provenance.generated("audit neighbours"));
    }

    /** The released coordinates on the mechanism's scale: the block Grams' upper triangles, c * sums, c^2 * count. */
    static double[] vector(SecondMoments m, double c) {
        List<Double> v = new ArrayList<>();
        for (DenseMatrix g : m.blockGrams()) {
            for (int i = 0; i < g.rows(); i++) {
                for (int j = i; j < g.cols(); j++) {
                    v.add(g.get(i, j));
                }
            }
        }
        for (double s : m.sums()) {
            v.add(c * s);
        }
        v.add(c * c * m.count());
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
