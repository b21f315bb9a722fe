package org.privadapt.models.uda;

import java.util.List;
import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.models.nn.SgdTrainer;
import org.privadapt.models.nn.graph.Stack;

/**
 * A synthetic two-class domain shift: each class is two Gaussian blobs in the plane (class 0 around (-2, +-1.5),
 * class 1 around (2, +-1.5), std 0.5), plus {@code noiseDims} pure-noise coordinates (std 0.5). The target rotates
 * the plane by {@code angleDeg} and shifts it by (shiftX, 0), moving class 0 onto the source's decision boundary.
 */
final class ShiftProblem {
    final DenseMatrix xs;
    final int[] ys;
    final DenseMatrix xt;
    final int[] yt;

    ShiftProblem(int n, int noiseDims, double angleDeg, double shiftX, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int d = 2 + noiseDims;
        double[][] s = new double[n][d];
        double[][] t = new double[n][d];
        ys = new int[n];
        yt = new int[n];
        double a = Math.toRadians(angleDeg);
        for (int i = 0; i < n; i++) {
            ys[i] = r.nextInt(2);
            point(s[i], ys[i], r);
            yt[i] = r.nextInt(2);
            double[] p = new double[d];
            point(p, yt[i], r);
            t[i] = p;
            double x0 = p[0];
            double x1 = p[1];
            t[i][0] = Math.cos(a) * x0 - Math.sin(a) * x1 + shiftX;
            t[i][1] = Math.sin(a) * x0 + Math.cos(a) * x1;
        }
        xs = DenseMatrix.fromRows(s);
        xt = DenseMatrix.fromRows(t);
    }

    private static void point(double[] p, int y, SplittableRandom r) {
        p[0] = (y == 0 ? -2 : 2) + 0.5 * r.nextGaussian();
        p[1] = (r.nextBoolean() ? 1.5 : -1.5) + 0.5 * r.nextGaussian();
        for (int j = 2; j < p.length; j++) {
            p[j] = 0.5 * r.nextGaussian();
        }
    }

    /** A plainly trained source network (hidden 16-16 tanh), split into encoder (hidden layers) and classifier (last). */
    Stack[] sourceModel(long seed) {
        Network net = Network.create(xs.cols(), new int[] {16, 16}, Activation.TANH, List.of("0", "1"), seed);
        net = SgdTrainer.train(net, xs, ys, 40, 32, "adam", 1e-2, "constant", 0, seed);
        List<org.privadapt.models.nn.graph.DenseLayer> ls = net.stack().layers();
        Stack enc = new Stack(ls.subList(0, ls.size() - 1)).copy();
        Stack cls = new Stack(ls.subList(ls.size() - 1, ls.size())).copy();
        return new Stack[] {enc, cls};
    }

    static double accuracy(int[] predicted, int[] truth) {
        int ok = 0;
        for (int i = 0; i < truth.length; i++) {
            ok += predicted[i] == truth[i] ? 1 : 0;
        }
        return (double) ok / truth.length;
    }
}
