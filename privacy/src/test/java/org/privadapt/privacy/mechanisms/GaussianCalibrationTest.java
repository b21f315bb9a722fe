package org.privadapt.privacy.mechanisms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class GaussianCalibrationTest {

    @ParameterizedTest(name = "eps={0} delta={1} Delta={2}")
    @CsvSource({"1.0, 1e-5, 1.0", "0.1, 1e-6, 1.0", "2.0, 1e-5, 3.0", "8.0, 1e-6, 1.0", "0.5, 1e-3, 0.25", "20, 1e-9, 1"})
    void analyticSigmaIsTheSmallestThatWorksByAMultiPrecisionOracle(double eps, double delta, double sens) {
        double sigma = GaussianCalibration.analyticSigma(eps, delta, sens);
        // an independent 80-digit computation of Balle-Wang's exact delta
        double atSigma = org.privadapt.privacy.accounting.MpOracleAccess.gaussianDelta(sigma, eps, sens);
        double below = org.privadapt.privacy.accounting.MpOracleAccess.gaussianDelta(sigma * (1 - 1e-6), eps, sens);
        assertThat(atSigma).isLessThanOrEqualTo(delta * (1 + 1e-9));
        assertThat(below).isGreaterThan(delta);
        // the double-precision formula agrees with the oracle
        assertThat(GaussianCalibration.exactDelta(sigma, eps, sens)).isCloseTo(atSigma, offset(delta * 1e-8));
    }

    @Test
    void analyticIsTighterThanClassic() {
        double classic = GaussianCalibration.classicSigma(0.5, 1e-5, 1.0);
        assertThat(classic).isCloseTo(Math.sqrt(2 * Math.log(1.25e5)) / 0.5, offset(1e-12));
        assertThat(GaussianCalibration.analyticSigma(0.5, 1e-5, 1.0)).isLessThan(classic);
        assertThat(GaussianCalibration.exactDelta(classic, 0.5, 1.0)).isLessThan(1e-5);
    }

    @Test
    void classicIsRefusedOutsideItsProof() {
        assertThatThrownBy(() -> GaussianCalibration.classicSigma(1.0, 1e-5, 1.0)).hasMessageContaining("epsilon < 1");
        assertThatThrownBy(() -> GaussianCalibration.analyticSigma(1.0, 0, 1.0)).hasMessageContaining("delta");
        assertThatThrownBy(() -> GaussianCalibration.analyticSigma(1.0, 1e-5, -1)).hasMessageContaining("sensitivity");
    }

    @Test
    void scalesLinearlyWithSensitivity() {
        double s1 = GaussianCalibration.analyticSigma(1.5, 1e-6, 1.0);
        double s3 = GaussianCalibration.analyticSigma(1.5, 1e-6, 3.0);
        assertThat(s3 / s1).isCloseTo(3.0, offset(1e-9));
    }
}
