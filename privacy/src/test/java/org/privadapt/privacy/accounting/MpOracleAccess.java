package org.privadapt.privacy.accounting;

/** Gives tests in other packages the multi-precision oracle. */
public final class MpOracleAccess {
    private MpOracleAccess() {
    }

    public static double gaussianDelta(double sigma, double epsilon, double sensitivity) {
        return MpOracle.gaussianDelta(sigma, epsilon, sensitivity);
    }
}
