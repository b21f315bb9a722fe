package org.privadapt.privacy.accounting;

import org.apache.commons.numbers.gamma.Erfc;
import org.apache.commons.numbers.gamma.Erfcx;

/**
 * Log-space arithmetic and the special functions the accountants need, accurate in the far tails where the
 * naive formulas underflow: {@code log erfc}, {@code log Phi}, {@code log(e^a + e^b)}, {@code log(e^a - e^b)}.
 */
public final class LogMath {
    private static final double LOG_HALF = Math.log(0.5);

    private LogMath() {
    }

    /** {@code log(e^a + e^b)} without overflow; -infinity is the neutral element. */
    public static double logAdd(double a, double b) {
        if (a == Double.NEGATIVE_INFINITY) {
            return b;
        }
        if (b == Double.NEGATIVE_INFINITY) {
            return a;
        }
        double hi = Math.max(a, b);
        double lo = Math.min(a, b);
        return hi + Math.log1p(Math.exp(lo - hi));
    }

    /**
     * {@code log(e^a - e^b)} for {@code a >= b}; -infinity when equal.
     *
     * @throws ArithmeticException when {@code b > a} (the difference would be negative)
     */
    public static double logSub(double a, double b) {
        if (b > a) {
            throw new ArithmeticException("log of a negative difference: " + a + " < " + b);
        }
        if (b == Double.NEGATIVE_INFINITY) {
            return a;
        }
        if (a == b) {
            return Double.NEGATIVE_INFINITY;
        }
        return a + log1mExp(b - a);
    }

    /** {@code log(1 - e^x)} for {@code x <= 0}, accurate near 0 and for very negative x (Maechler 2012). */
    public static double log1mExp(double x) {
        if (x > 0) {
            throw new ArithmeticException("log1mExp needs x <= 0, got " + x);
        }
        return x > -Math.log(2) ? Math.log(-Math.expm1(x)) : Math.log1p(-Math.exp(x));
    }

    /**
     * {@code log(erfc(x))} for every real x: through the scaled function {@code erfcx(x) = e^{x^2} erfc(x)} for
     * positive x (so it stays accurate where erfc underflows, e.g. x = 40), directly otherwise.
     */
    public static double logErfc(double x) {
        if (Double.isNaN(x)) {
            return Double.NaN;
        }
        if (x == Double.POSITIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        if (x > 0) {
            return Math.log(Erfcx.value(x)) - x * x;
        }
        return Math.log(Erfc.value(x));
    }

    /** {@code log Phi(x)}, the log of the standard normal CDF, accurate in the lower tail. */
    public static double logPhi(double x) {
        return LOG_HALF + logErfc(-x / Math.sqrt(2.0));
    }

    /** {@code Phi(x)}, the standard normal CDF, with relative accuracy in the lower tail. */
    public static double phi(double x) {
        return 0.5 * Erfc.value(-x / Math.sqrt(2.0));
    }
}
