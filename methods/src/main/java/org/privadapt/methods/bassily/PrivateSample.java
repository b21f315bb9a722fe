package org.privadapt.methods.bassily;

import org.privadapt.math.DenseMatrix;

/**
 * Paper 003's private training sample S_priv, wherever its rows are: the exact sums its two releases add noise to,
 * over its rows after the protocol's scaling and the public reduction ({@link PublicSubspace}, or none), clipped as
 * each release clips. In process the rows are the protocol's own ({@link #of}); the spark module sums the same
 * per-row terms where the rows live, with the same public row maps applied to each row there. The size n is the
 * protocol's ({@link SupervisedProtocol#n()}, public under replace-one).
 */
public interface PrivateSample {
    /** {@code dp-target-only}'s query: the gradient sum over the mapped rows clipped to {@code rowBound}, targets to [-1, 1]. */
    NoisyGradientDescent.GradientSum gradientSum(PublicSubspace sub, double rowBound);

    /** {@code pcnvxadap-stats}' exact quantities over the mapped rows clipped to 1, targets to [-1, 1]. */
    StatisticsPCnvxAdap.TargetSource targetSource(PublicSubspace sub);

    /** The sample of a protocol whose private training part is in this process. */
    static PrivateSample of(SupervisedProtocol p) {
        if (p.xTrain() == null) {
            throw new IllegalArgumentException("the protocol's private training part is not in this process");
        }
        return new PrivateSample() {
            @Override
            public NoisyGradientDescent.GradientSum gradientSum(PublicSubspace sub, double rowBound) {
                DenseMatrix x = sub == null ? p.xTrain() : sub.project(p.xTrain());
                double[] y = targets(sub);
                return NoisyGradientDescent.inProcess(PCnvxAdap.clipRows(x, rowBound), PCnvxAdap.clipTargets(y));
            }

            @Override
            public StatisticsPCnvxAdap.TargetSource targetSource(PublicSubspace sub) {
                DenseMatrix x = sub == null ? p.xTrain() : sub.project(p.xTrain());
                return StatisticsPCnvxAdap.inProcess(PCnvxAdap.clipRows(x, 1.0), PCnvxAdap.clipTargets(targets(sub)));
            }

            private double[] targets(PublicSubspace sub) {
                double[] y = SupervisedSupport.values(p.yTrain(), "paper 003");
                return sub == null ? y : sub.targets(p.xTrain(), y);
            }
        };
    }
}
