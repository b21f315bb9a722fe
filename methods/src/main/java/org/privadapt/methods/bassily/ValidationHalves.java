package org.privadapt.methods.bassily;

import static org.privadapt.methods.bassily.SupervisedSupport.values;

import org.privadapt.math.DenseMatrix;

/**
 * The public validation rows cut in two for simulation-based selection: the first half (clipped to norm 1, targets
 * to [-1, 1]) stands in for the private rows, the second half (as scaled) scores the candidates.
 */
record ValidationHalves(DenseMatrix xStandIn, double[] yStandIn, DenseMatrix xScore, double[] yScore) {
    static ValidationHalves of(SupervisedProtocol p, String what) {
        int v = p.xValidation().rows();
        int half = v / 2;
        int[] a = java.util.stream.IntStream.range(0, half).toArray();
        int[] b = java.util.stream.IntStream.range(half, v).toArray();
        double[] yv = values(p.yValidation(), what);
        return new ValidationHalves(PCnvxAdap.clipRows(p.xValidation().selectRows(a), 1.0), PCnvxAdap.clipTargets(pick(yv, a)),
                p.xValidation().selectRows(b), pick(yv, b));
    }

    private static double[] pick(double[] v, int[] idx) {
        double[] out = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = v[idx[i]];
        }
        return out;
    }
}
