package org.privadapt.privacy.noise;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.commons.statistics.distribution.NormalDistribution;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class ZigguratTest {
    private static final NormalDistribution STANDARD = NormalDistribution.of(0, 1);

    @Test
    void tablesCloseAtTheTop() {
        assertThat(Math.abs(Ziggurat.closureResidual())).isLessThan(1e-11);
    }

    @Test
    void integerRectangleTestAgreesWithTheDoubleOneAtEveryLayersBoundary() {
        // m < insideBound(i) must hold exactly when (m 2^-53) X[i] < X[i+1] in double arithmetic (the old test)
        for (int i = 0; i < Ziggurat.LAYERS; i++) {
            long bound = Ziggurat.insideBound(i);
            assertThat(bound).isBetween(0L, 1L << 53);
            for (long m = Math.max(0, bound - 3); m <= Math.min((1L << 53) - 1, bound + 3); m++) {
                boolean inside = (m * 0x1.0p-53) * Ziggurat.layerWidth(i) < Ziggurat.layerWidth(i + 1);
                assertThat(m < bound).as("layer %d, m %d", i, m).isEqualTo(inside);
            }
        }
        assertThat(Ziggurat.insideBound(Ziggurat.LAYERS - 1)).isZero(); // the top layer has no rectangle: X[256] = 0
        assertThat(Ziggurat.insideBound(1)).isGreaterThan(1L << 52); // lower layers: almost all inside
    }

    @Test
    void samplesPassKolmogorovSmirnovAndMoments() {
        RandomBits bits = new SeededRandomBits(41);
        int n = 400_000;
        double[] z = new double[n];
        double fourth = 0;
        for (int i = 0; i < n; i++) {
            z[i] = Ziggurat.next(bits);
            fourth += z[i] * z[i] * z[i] * z[i];
        }
        Stats.assertKs(z, STANDARD::cumulativeProbability);
        assertThat(Stats.mean(z)).isCloseTo(0.0, Offset.offset(5 / Math.sqrt(n)));
        assertThat(Stats.variance(z)).isCloseTo(1.0, Offset.offset(5 * Math.sqrt(2.0 / n)));
        assertThat(fourth / n).isCloseTo(3.0, Offset.offset(5 * Math.sqrt(96.0 / n))); // Var(Z^4) = 105 - 9
    }

    @Test
    void tailAndWedgeMassesAreRight() {
        // beyond R (tail algorithm), and within the top layer's band (wedge algorithm): 5 standard errors
        RandomBits bits = new SeededRandomBits(42);
        int n = 2_000_000;
        long tail = 0;
        long inner = 0;
        for (int i = 0; i < n; i++) {
            double z = Math.abs(Ziggurat.next(bits));
            if (z > Ziggurat.R) {
                tail++;
            }
            if (z > 2.0 && z < 2.2) {
                inner++;
            }
        }
        double pTail = 2 * STANDARD.survivalProbability(Ziggurat.R);
        double pInner = 2 * (STANDARD.cumulativeProbability(2.2) - STANDARD.cumulativeProbability(2.0));
        assertThat((double) tail / n).isCloseTo(pTail, Offset.offset(5 * Math.sqrt(pTail / n)));
        assertThat((double) inner / n).isCloseTo(pInner, Offset.offset(5 * Math.sqrt(pInner / n)));
    }
}
