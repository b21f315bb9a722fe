package org.privadapt.privacy.noise;

import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * Standard normal doubles by Marsaglia and Tsang's (2000) ziggurat with 256 layers of equal area {@code v}.
 *
 * <p>One 64-bit draw per attempt: bits 0-7 choose the layer, bit 8 the sign and bits 11-63 the 53-bit uniform
 * abscissa, so the three are independent (the correlation Doornik (2005) found in the original 32-bit code, where
 * the layer index and the abscissa shared bits, cannot occur). About 98.5 % of attempts return from the
 * rectangle test without evaluating a transcendental function; the wedges use {@code exp}, the base strip's tail
 * Marsaglia's (1964) exponential-rejection method.
 *
 * <p>Tables: {@code X[1] = R = 3.6541528853610088} (Marsaglia-Tsang), {@code v = R f(R) + integral_R^inf f} with
 * {@code f(x) = exp(-x^2/2)} evaluated from the normal survival function, {@code X[0] = v / f(R)} (the base
 * strip's virtual width), {@code X[i+1] = f^-1(f(X[i]) + v / X[i])}, and {@code X[256] = 0}. The top layer's
 * area then differs from {@code v} by the closure residual of this recursion (1.4e-13 relative, see
 * {@link #closureResidual()}), the only deviation of the sampler from N(0, 1) beyond double rounding.
 */
final class Ziggurat {
    static final int LAYERS = 256;
    static final double R = 3.6541528853610088;

    private static final double[] X = new double[LAYERS + 1];
    private static final double[] F = new double[LAYERS + 1];
    /** {@code W[i] = X[i] 2^-53}, exact: the abscissa of a 53-bit integer {@code m} in layer i is {@code m W[i]}. */
    static final double[] W = new double[LAYERS];
    /** The least {@code m} whose abscissa {@code m W[i]} is not below {@code X[i+1]}: the rectangle test as integers. */
    static final long[] INSIDE = new long[LAYERS];
    private static final double AREA;
    private static final double RESIDUAL;

    static {
        double fr = Math.exp(-0.5 * R * R);
        AREA = R * fr + Math.sqrt(2 * Math.PI) * NormalDistribution.of(0, 1).survivalProbability(R);
        X[0] = AREA / fr;
        X[1] = R;
        for (int i = 1; i < LAYERS - 1; i++) {
            X[i + 1] = Math.sqrt(-2.0 * Math.log(AREA / X[i] + Math.exp(-0.5 * X[i] * X[i])));
        }
        X[LAYERS] = 0.0;
        for (int i = 0; i <= LAYERS; i++) {
            F[i] = Math.exp(-0.5 * X[i] * X[i]);
        }
        for (int i = 0; i < LAYERS; i++) {
            W[i] = X[i] * 0x1.0p-53;
            INSIDE[i] = firstOutside(i);
        }
        RESIDUAL = (X[LAYERS - 1] * (1.0 - F[LAYERS - 1]) - AREA) / AREA;
    }

    private Ziggurat() {
    }

    /**
     * The least {@code m} in [0, 2^53] with {@code m W[i] >= X[i+1]} in double arithmetic, by bisection: the product
     * rounds monotonically in {@code m}, so {@code m < INSIDE[i]} holds exactly when the double comparison
     * {@code m W[i] < X[i+1]} does, and the integer test decides every draw as the floating-point one would.
     */
    private static long firstOutside(int i) {
        long lo = 0;
        long hi = 1L << 53;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (mid * W[i] < X[i + 1]) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** {@code X[i]}: layer i's right edge (i = 0: the base strip's virtual width; i = 256: 0). */
    static double layerWidth(int i) {
        return X[i];
    }

    /** {@code F[i] = exp(-X[i]^2 / 2)}. */
    static double layerDensity(int i) {
        return F[i];
    }

    /** The least 53-bit integer outside layer i's rectangle (see {@link #firstOutside}). */
    static long insideBound(int i) {
        return INSIDE[i];
    }

    /** Relative difference between the top layer's area and the common layer area {@code v}. */
    static double closureResidual() {
        return RESIDUAL;
    }

    /** One standard normal double, drawing its words from {@code bits} one at a time. */
    static double next(RandomBits bits) {
        return next(new LongCursor(0).direct(bits));
    }

    /**
     * One standard normal double. The first attempt's rectangle test (about 98.5 % of draws) is kept small enough
     * for the compiler to inline into a caller's loop; the rest of the algorithm is in {@link #rest}, which draws
     * its further words from the same cursor in the same order.
     */
    static double next(LongCursor bits) {
        long u = bits.next();
        int layer = (int) (u & 0xff);
        long m = u >>> 11;
        if (m < INSIDE[layer]) {
            // x = m W[layer] equals ((u >>> 11) 2^-53) X[layer] exactly (a power-of-two scaling); bit 8 of u becomes
            // the sign bit: -x when it is set, exactly, with no unpredictable branch
            double x = m * W[layer];
            return Double.longBitsToDouble(Double.doubleToRawLongBits(x) ^ ((u & 0x100) << 55));
        }
        return rest(bits, u, layer, (m * 0x1.0p-53) * X[layer]);
    }

    /** The algorithm after a first attempt {@code u} (layer {@code layer}, abscissa {@code x}) left the rectangle. */
    private static double rest(LongCursor bits, long u, int layer, double x) {
        while (true) {
            boolean negative = (u & 0x100) != 0;
            if (x < X[layer + 1]) {
                return negative ? -x : x;
            }
            if (layer == 0) {
                double t = tail(bits);
                return negative ? -t : t;
            }
            double y = F[layer] + bits.nextDouble() * (F[layer + 1] - F[layer]);
            if (y < Math.exp(-0.5 * x * x)) {
                return negative ? -x : x;
            }
            u = bits.next();
            layer = (int) (u & 0xff);
            x = ((u >>> 11) * 0x1.0p-53) * X[layer];
        }
    }

    /** A draw from the standard normal conditioned on being > R. */
    private static double tail(LongCursor bits) {
        while (true) {
            double a = -Math.log(1.0 - bits.nextDouble()) / R;
            double b = -Math.log(1.0 - bits.nextDouble());
            if (b + b > a * a) {
                return R + a;
            }
        }
    }
}
