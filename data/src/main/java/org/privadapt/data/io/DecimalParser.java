package org.privadapt.data.io;

import java.nio.charset.StandardCharsets;

/**
 * The number a table field holds, read as the loaders read it ({@link TableEncoder#isNumber}: a finite decimal in
 * Java syntax, no hex, no {@code NaN}/{@code Infinity} text, no {@code d}/{@code f} suffix), with a fast path for plain
 * decimals that gives the value {@link Double#parseDouble} gives, bit for bit.
 *
 * <p>The fast path is Clinger's (W. D. Clinger, "How to read floating point numbers accurately", PLDI 1990; also the
 * first step of the JDK's {@code FloatingDecimal} and of D. Lemire, "Number parsing at a gigabyte per second",
 * Software: Practice and Experience 51(8), 2021): a decimal {@code w * 10^e} whose digits {@code w} (leading zeros
 * dropped) are at most 2^53 and whose exponent has {@code |e| <= 22} is {@code (double) w * 10^e} or
 * {@code (double) w / 10^-e}; both operands are exact doubles (2^53 and 10^22 &lt; 2^53 * 2^22 are), and one IEEE
 * multiplication or division rounds the exact quotient or product once, to nearest even: the correctly rounded
 * value, which is what {@code Double.parseDouble} returns. Anything else (more digits, a larger exponent, a suffix,
 * hex, text) goes to {@code Double.parseDouble} on the field's text, as before.
 */
final class DecimalParser {
    private static final double[] POW10 = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    };
    /** The largest digit string the fast path takes: 2^53, below which every integer is a double. */
    private static final long MAX_DIGITS = 1L << 53;
    /** Not handled by the fast path (it never returns NaN otherwise). */
    static final double NOT_FAST = Double.NaN;

    private DecimalParser() {
    }

    /** The value of a field the loader reads as a number ({@link TableEncoder#isNumber}), else NaN. */
    static double parse(String s) {
        double v = fast(s);
        return v == v ? v : slow(s);
    }

    /** {@link #parse(String)} of the ASCII text {@code b[from, to)}. */
    static double parse(byte[] b, int from, int to) {
        double v = fast(b, from, to);
        return v == v ? v : slow(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
    }

    /** The loaders' rule, on the text: {@code Double.parseDouble} of what looks like a decimal, NaN otherwise. */
    static double slow(String s) {
        if (s.isEmpty()) {
            return Double.NaN;
        }
        char c0 = s.charAt(0);
        if (!(Character.isDigit(c0) || c0 == '-' || c0 == '+' || c0 == '.')) {
            return Double.NaN;
        }
        char last = s.charAt(s.length() - 1);
        if (last == 'd' || last == 'D' || last == 'f' || last == 'F' || s.indexOf('x') >= 0 || s.indexOf('X') >= 0) {
            return Double.NaN;
        }
        double v;
        try {
            v = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
        return Double.isFinite(v) ? v : Double.NaN; // NaN, Infinity and overflowing literals are not numbers here
    }

    /**
     * The value of {@code [+-]digits[.digits][(e|E)[+-]digits]} (at least one mantissa digit, at most 18 in all) in
     * {@code b[from, to)} when the fast path applies, else {@link #NOT_FAST}.
     */
    static double fast(byte[] b, int from, int to) {
        int i = from;
        if (i >= to) {
            return NOT_FAST;
        }
        boolean negative = false;
        int c = b[i];
        if (c == '-') {
            negative = true;
            i++;
        } else if (c == '+') {
            i++;
        }
        long w = 0; // the digits (garbage when there are more than 18: refused below)
        int start = i;
        int digit;
        while (i < to && (digit = b[i] - '0') >= 0 && digit <= 9) {
            w = w * 10 + digit;
            i++;
        }
        int digits = i - start;
        int scale = 0; // the power of ten of w's last digit
        if (i < to && b[i] == '.') {
            int point = ++i;
            while (i < to && (digit = b[i] - '0') >= 0 && digit <= 9) {
                w = w * 10 + digit;
                i++;
            }
            scale = point - i;
            digits -= scale;
        }
        if (digits == 0 || digits > 18) {
            return NOT_FAST;
        }
        if (i < to) {
            c = b[i];
            if (c != 'e' && c != 'E') {
                return NOT_FAST;
            }
            i++;
            boolean negativeExponent = false;
            if (i < to && ((c = b[i]) == '-' || c == '+')) {
                negativeExponent = c == '-';
                i++;
            }
            if (i >= to || to - i > 6) {
                return NOT_FAST; // no exponent digits, or far outside the fast range: parseDouble reads it
            }
            int exponent = 0;
            while (i < to && (digit = b[i] - '0') >= 0 && digit <= 9) {
                exponent = exponent * 10 + digit;
                i++;
            }
            if (i != to) {
                return NOT_FAST;
            }
            scale += negativeExponent ? -exponent : exponent;
        }
        return value(negative, w, scale);
    }

    /** {@link #fast(byte[], int, int)} on a string. */
    static double fast(String s) {
        int to = s.length();
        int i = 0;
        if (i >= to) {
            return NOT_FAST;
        }
        boolean negative = false;
        int c = s.charAt(i);
        if (c == '-') {
            negative = true;
            i++;
        } else if (c == '+') {
            i++;
        }
        long w = 0;
        int start = i;
        int digit;
        while (i < to && (digit = s.charAt(i) - '0') >= 0 && digit <= 9) {
            w = w * 10 + digit;
            i++;
        }
        int digits = i - start;
        int scale = 0;
        if (i < to && s.charAt(i) == '.') {
            int point = ++i;
            while (i < to && (digit = s.charAt(i) - '0') >= 0 && digit <= 9) {
                w = w * 10 + digit;
                i++;
            }
            scale = point - i;
            digits -= scale;
        }
        if (digits == 0 || digits > 18) {
            return NOT_FAST;
        }
        if (i < to) {
            c = s.charAt(i);
            if (c != 'e' && c != 'E') {
                return NOT_FAST;
            }
            i++;
            boolean negativeExponent = false;
            if (i < to && ((c = s.charAt(i)) == '-' || c == '+')) {
                negativeExponent = c == '-';
                i++;
            }
            if (i >= to || to - i > 6) {
                return NOT_FAST;
            }
            int exponent = 0;
            while (i < to && (digit = s.charAt(i) - '0') >= 0 && digit <= 9) {
                exponent = exponent * 10 + digit;
                i++;
            }
            if (i != to) {
                return NOT_FAST;
            }
            scale += negativeExponent ? -exponent : exponent;
        }
        return value(negative, w, scale);
    }

    private static double value(boolean negative, long w, int scale) {
        double v;
        if (w == 0) {
            v = 0.0; // whatever the exponent, as parseDouble reads a zero
        } else if (w > MAX_DIGITS) {
            return NOT_FAST;
        } else if (scale == 0) {
            v = w;
        } else if (scale > 0 && scale <= 22) {
            v = (double) w * POW10[scale];
        } else if (scale < 0 && scale >= -22) {
            v = (double) w / POW10[-scale];
        } else {
            return NOT_FAST;
        }
        return negative ? -v : v;
    }
}
