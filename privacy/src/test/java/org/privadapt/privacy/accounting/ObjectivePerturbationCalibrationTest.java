package org.privadapt.privacy.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.mechanisms.ObjectivePerturbationCalibration;
import org.privadapt.privacy.mechanisms.ObjectivePerturbationCalibration.Calibrated;
import org.privadapt.privacy.mechanisms.ObjectivePerturbationCalibration.Guarantee;
import org.privadapt.privacy.mechanisms.ObjectivePerturbationCalibration.Parameters;

/**
 * The privacy map of objective perturbation (docs/privacy/private-learners.md): its tail term against a
 * multi-precision normal CDF, its Jacobian term and the Lambda that inverts it, the slack chain, and a calibration
 * that meets its target with the smallest noise the map allows. (In the accounting test package for {@link MpOracle}.)
 */
class ObjectivePerturbationCalibrationTest {
    private static final NeighbouringRelation ADD = NeighbouringRelation.ADD_OR_REMOVE_ONE;
    private static final NeighbouringRelation REPLACE = NeighbouringRelation.REPLACE_ONE;

    /** The standard normal upper tail in multi-precision (the oracle's series holds for |x| <= 8). */
    private static double upperTail(double x) {
        assertThat(Math.abs(x)).as("oracle range").isLessThanOrEqualTo(8);
        return MpOracle.phi(new BigDecimal(-x)).doubleValue();
    }

    @Test
    void objectiveDeltaIsTheUnionOfGaussianTailsInMultiPrecision() {
        for (int k : new int[] {2, 3, 10}) {
            for (double mu : new double[] {0.1, 0.25, 0.5}) {
                for (double eg : new double[] {0.5, 1.0, 1.5}) {
                    if ((eg - mu * mu) / (Math.sqrt(2) * mu) > 8) {
                        continue;
                    }
                    double add = (k - 1) * upperTail((eg - mu * mu) / (Math.sqrt(2) * mu));
                    assertThat(ObjectivePerturbationCalibration.objectiveDelta(k, mu, eg, ADD))
                            .as("K %d mu %s eps_g %s add/remove", k, mu, eg).isCloseTo(Math.min(1, add), within(1e-12 + 1e-9 * add));
                    if (eg > 4 * mu * mu && (eg - 4 * mu * mu) / (2 * Math.sqrt(2) * mu) <= 8) {
                        double rep = 2 * (k - 1) * upperTail((eg - 4 * mu * mu) / (2 * Math.sqrt(2) * mu));
                        assertThat(ObjectivePerturbationCalibration.objectiveDelta(k, mu, eg, REPLACE))
                                .as("K %d mu %s eps_g %s replace", k, mu, eg).isCloseTo(Math.min(1, rep), within(1e-12 + 1e-9 * rep));
                    }
                }
            }
        }
        // no guarantee when eps_g does not exceed the squared shift
        assertThat(ObjectivePerturbationCalibration.objectiveDelta(3, 1.0, 1.0, ADD)).isEqualTo(1.0);
        assertThat(ObjectivePerturbationCalibration.objectiveDelta(3, 0.5, 1.0, REPLACE)).isEqualTo(1.0);
    }

    @Test
    void determinantTermAndItsInverse() {
        // (K - 1) ln(1 + zeta^2 / (K Lambda)): K = 3, zeta^2 = 2, Lambda = 1 -> 2 ln(5/3)
        assertThat(ObjectivePerturbationCalibration.determinantEpsilon(3, Math.sqrt(2), 1.0)).isCloseTo(2 * Math.log(5.0 / 3), within(1e-15));
        for (int k : new int[] {2, 10}) {
            for (double e : new double[] {0.01, 0.5, 3}) {
                double lam = ObjectivePerturbationCalibration.lambdaFor(k, 4.0, e);
                assertThat(ObjectivePerturbationCalibration.determinantEpsilon(k, 4.0, lam)).isCloseTo(e, within(1e-12 * (1 + e)));
            }
        }
    }

    @Test
    void theMapChainsTheSlackAroundTheMinimiser() {
        Parameters p = new Parameters(4, 2.0, 3.0, 7.0, 1e-4, 2e-4, ADD);
        Guarantee g = ObjectivePerturbationCalibration.privacyMap(p, 0.8, 0.05);
        double epsDet = 3 * Math.log1p(5.0 / 12);
        double deltaO = 3 * upperTail((0.8 - 5.0 / 49) / (Math.sqrt(2) * Math.sqrt(5) / 7));
        double deltaS = MpOracle.gaussianDelta(2e-4, 0.05, 1e-4 / 3);
        assertThat(g.epsilonDeterminant()).isCloseTo(epsDet, within(1e-14));
        assertThat(g.epsilon()).isCloseTo(epsDet + 0.8 + 0.1, within(1e-14));
        assertThat(g.deltaObjective()).isCloseTo(deltaO, within(1e-9 * deltaO));
        assertThat(g.deltaSlack()).isCloseTo(deltaS, within(1e-9 * deltaS));
        double delta = deltaS + Math.exp(0.05) * deltaO + Math.exp(0.05 + epsDet + 0.8) * deltaS;
        assertThat(g.delta()).isCloseTo(delta, within(1e-9 * delta));
    }

    @Test
    void calibrationMeetsItsTargetWithTheSmallestNoiseTheMapAllows() {
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            for (int k : new int[] {2, 10}) {
                for (double eps : new double[] {0.3, 2, 8}) {
                    for (double lam : new double[] {Double.MIN_NORMAL, 1e4}) {
                        Calibrated c = ObjectivePerturbationCalibration.calibrate(eps, 1e-5, k, 32, lam, 1e-7, 1025 * k, rel);
                        Guarantee g = c.guarantee();
                        Parameters p = c.parameters();
                        String what = rel + " K " + k + " eps " + eps + " lambda " + lam;
                        assertThat(g.epsilon()).as(what).isLessThanOrEqualTo(eps * (1 + 1e-12)).isGreaterThan(eps * 0.999);
                        assertThat(g.delta()).as(what).isLessThanOrEqualTo(1e-5).isGreaterThan(0.99e-5);
                        // the noise is the smallest for this split: 1e-6 less noise breaks the objective's delta
                        double mu = p.zeta() / p.noiseStd();
                        assertThat(ObjectivePerturbationCalibration.objectiveDelta(k, mu * (1 + 1e-6), g.epsilonGaussian(), rel))
                                .as(what).isGreaterThan(g.deltaObjective());
                        // Lambda is never below the ask, and at least the one that holds the Jacobian term to half
                        assertThat(p.lambda()).isGreaterThanOrEqualTo(lam);
                        assertThat(g.epsilonDeterminant()).as(what).isLessThanOrEqualTo(
                                ObjectivePerturbationCalibration.DETERMINANT_SHARE * (eps - 2 * g.epsilonSlack()) * (1 + 1e-9));
                        assertThat(p.gradientTolerance()).isCloseTo(1e-7 * p.noiseStd() * Math.sqrt(1025 * k), within(1e-12 * p.noiseStd()));
                    }
                }
            }
        }
    }

    @Test
    void replaceOneNeedsMoreNoiseAndMoreClassesNeedMoreRegularisation() {
        Calibrated add = ObjectivePerturbationCalibration.calibrate(2, 1e-5, 10, 1, Double.MIN_NORMAL, 1e-7, 20, ADD);
        Calibrated rep = ObjectivePerturbationCalibration.calibrate(2, 1e-5, 10, 1, Double.MIN_NORMAL, 1e-7, 20, REPLACE);
        assertThat(rep.parameters().noiseStd()).isGreaterThan(1.9 * add.parameters().noiseStd());
        Calibrated two = ObjectivePerturbationCalibration.calibrate(2, 1e-5, 2, 1, Double.MIN_NORMAL, 1e-7, 4, ADD);
        assertThat(add.parameters().lambda()).isGreaterThan(two.parameters().lambda());
        assertThatThrownBy(() -> ObjectivePerturbationCalibration.calibrate(2, 1e-5, 1, 1, 1, 1e-7, 4, ADD))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 classes");
        assertThatThrownBy(() -> ObjectivePerturbationCalibration.calibrate(2, 0, 3, 1, 1, 1e-7, 6, ADD))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
