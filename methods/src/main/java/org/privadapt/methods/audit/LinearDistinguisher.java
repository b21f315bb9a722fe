package org.privadapt.methods.audit;

import org.privadapt.privacy.noise.NoiseSource;

/**
 * The test for releases whose output distribution the attack does not model: from {@code m} outputs on each dataset
 * (used for nothing else), the per-coordinate means and pooled variances, and the statistic
 * {@code sum_i (mean'_i - mean_i) / var_i * output_i}: the likelihood-ratio test of independent Gaussian coordinates
 * with those moments, optimal when the release adds independent Gaussian noise to each coordinate and still a valid
 * test (only weaker) otherwise. A coordinate that never varies but differs between the datasets gets a weight that
 * separates them outright, as it should: such a release is not private.
 */
final class LinearDistinguisher {
    private LinearDistinguisher() {
    }

    static ReleaseAudit.Attack fit(ReleaseAudit.Outputs outputs, long m, NoiseSource noise) {
        if (m < 2) {
            throw new IllegalArgumentException("need at least 2 outputs per dataset to fit the test, got " + m);
        }
        double[] first = outputs.output(false, noise);
        int p = first.length;
        double[][] mean = new double[2][p];
        double[][] m2 = new double[2][p];
        for (int side = 0; side < 2; side++) {
            for (long t = 0; t < m; t++) {
                double[] o = side == 0 && t == 0 ? first : outputs.output(side == 1, noise);
                if (o.length != p) {
                    throw new IllegalStateException("the release's output length changed between runs (" + p + ", " + o.length
                            + "): the neighbours are distinguishable by their shape");
                }
                for (int i = 0; i < p; i++) { // Welford
                    double dlt = o[i] - mean[side][i];
                    mean[side][i] += dlt / (t + 1);
                    m2[side][i] += dlt * (o[i] - mean[side][i]);
                }
            }
        }
        double[] w = new double[p];
        double[] centre = new double[p];
        for (int i = 0; i < p; i++) {
            double shift = mean[1][i] - mean[0][i];
            double var = (m2[0][i] + m2[1][i]) / (2.0 * m - 2);
            double floor = 1e-12 * Math.max(1.0, Math.abs(mean[0][i]) + Math.abs(mean[1][i]));
            w[i] = shift / Math.max(var, floor * floor);
            centre[i] = mean[0][i];
        }
        return (neighbour, noise2) -> {
            double[] o = outputs.output(neighbour, noise2);
            double t = 0;
            for (int i = 0; i < p; i++) {
                t += w[i] * (o[i] - centre[i]);
            }
            return t;
        };
    }
}
