package org.privadapt.data.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link DecimalParser} against {@link Double#parseDouble}, bit for bit: its fast path must give exactly the value
 * {@code parseDouble} gives wherever it applies, and the parser as a whole what the loaders' rule gives on every text
 * (a number, or NaN for text they do not read as one), and the whole-file loader's test for a number what it gave.
 */
class DecimalParserTest {
    /** The loaders' rule as it was before the fast path ({@code TableEncoder.isNumber}, then the value). */
    static double reference(String s) {
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
        return Double.isFinite(v) ? v : Double.NaN;
    }

    /** The whole-file loader's test for a number as it was before the fast path ({@code TableEncoder.isNumber}). */
    static boolean referenceIsNumber(String s) {
        if (s.isEmpty() || TableEncoder.isNonFinite(s)) {
            return false;
        }
        char c0 = s.charAt(0);
        if (!(Character.isDigit(c0) || c0 == '-' || c0 == '+' || c0 == '.')) {
            return false;
        }
        char last = s.charAt(s.length() - 1);
        if (last == 'd' || last == 'D' || last == 'f' || last == 'F' || s.contains("x") || s.contains("X")) {
            return false;
        }
        try {
            return Double.isFinite(Double.parseDouble(s));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Checks one text every way the parser reads it; returns whether the fast path took it. */
    static boolean check(String s) {
        long want = Double.doubleToRawLongBits(reference(s));
        same("parse", s, DecimalParser.parse(s), want);
        same("parseNumber", s, RowChunks.parseNumber(s), want);
        if (TableEncoder.isNumber(s) != referenceIsNumber(s)) {
            throw new AssertionError("isNumber(\"" + s + "\") = " + TableEncoder.isNumber(s));
        }
        double fastString = DecimalParser.fast(s);
        boolean fast = !Double.isNaN(fastString);
        if (fast) {
            same("fast (against parseDouble)", s, fastString, Double.doubleToRawLongBits(Double.parseDouble(s)));
        }
        if (s.chars().allMatch(c -> c < 128)) {
            // the bytes inside a larger buffer, with other text around them
            byte[] text = ("7,e" + s + "-9").getBytes(StandardCharsets.US_ASCII);
            int from = 3;
            int to = 3 + s.length();
            same("parse(bytes)", s, DecimalParser.parse(text, from, to), want);
            same("fast(bytes)", s, DecimalParser.fast(text, from, to), Double.doubleToRawLongBits(fastString));
        }
        return fast;
    }

    static void same(String what, String s, double got, long want) {
        if (Double.doubleToRawLongBits(got) != want) {
            throw new AssertionError(what + "(\"" + s + "\") = " + got + " (bits " + Long.toHexString(Double.doubleToRawLongBits(got))
                    + "), expected " + Double.longBitsToDouble(want) + " (bits " + Long.toHexString(want) + ")");
        }
    }

    static String digits(SplittableRandom rng, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append((char) ('0' + rng.nextInt(10)));
        }
        return sb.toString();
    }

    @Test
    void randomDecimalsOfManyShapesAreParseDoubleBitForBit() {
        SplittableRandom rng = new SplittableRandom(20_240_531L);
        int fast = 0;
        int all = 300_000;
        for (int t = 0; t < all; t++) {
            StringBuilder sb = new StringBuilder();
            sb.append(new String[] {"", "", "-", "+"}[rng.nextInt(4)]);
            int intDigits = rng.nextInt(0, 21);
            if (rng.nextInt(4) == 0) {
                sb.append("0".repeat(rng.nextInt(1, 6))); // leading zeros
            }
            sb.append(digits(rng, intDigits));
            int fracDigits = rng.nextInt(3) == 0 ? 0 : rng.nextInt(0, 21);
            if (fracDigits > 0 || rng.nextInt(4) == 0) {
                sb.append('.').append(digits(rng, fracDigits));
            }
            if (rng.nextInt(3) == 0) {
                sb.append(rng.nextBoolean() ? 'e' : 'E');
                sb.append(new String[] {"", "-", "+"}[rng.nextInt(3)]);
                int e = rng.nextInt(0, 31);
                sb.append(rng.nextInt(8) == 0 ? String.format(Locale.ROOT, "%03d", e) : Integer.toString(e));
            }
            if (check(sb.toString())) {
                fast++;
            }
        }
        assertThat(fast).as("the fast path takes many of them").isGreaterThan(all / 5).isLessThan(all);
    }

    @Test
    void printedDoublesAreParseDoubleBitForBit() {
        SplittableRandom rng = new SplittableRandom(7);
        int fastFourDecimals = 0;
        for (int t = 0; t < 100_000; t++) {
            double v = (rng.nextDouble() - 0.5) * Math.pow(10, rng.nextInt(-30, 31));
            check(Double.toString(v)); // up to 17 significant digits: many fall back
            check(String.format(Locale.ROOT, "%.6e", v));
            check(String.format(Locale.ROOT, "%.17g", v));
            String four = String.format(Locale.ROOT, "%.4f", Math.max(-9.9999, Math.min(9.9999, v)));
            if (check(four)) {
                fastFourDecimals++;
            }
            check(Double.toString(Double.longBitsToDouble(rng.nextLong()))); // any double, NaN and Infinity included
        }
        assertThat(fastFourDecimals).as("4-decimal values (the scale benchmark's) take the fast path").isEqualTo(100_000);
    }

    @Test
    void theFastPathsLimitsAndWhatFallsBack() {
        List<String> fast = List.of("0", "-0", "+0", "0.0000", "-0.0", "00000.5", "-.5", "+.5", "5.", "1e22", "1E-22",
                "9007199254740992", "-9007199254740992", "9007199254740992e22", "9007199254740992e-22",
                "0.9007199254740992", "123456789012345.6", "0e30", "-0e-30", "1.2345", "-9.9999", "000000000000000001",
                "1e+5", "1e-005");
        for (String s : fast) {
            assertThat(check(s)).as("fast path for %s", s).isTrue();
        }
        List<String> fallBack = List.of("9007199254740993", "9007199254740993e-22", "12345678901234567", "1234567890123456789",
                "0.12345678901234567", "1e23", "1e-23", "8.5e-23", "1e400", "-1e400", "1e-400", "4.9e-324",
                "1.7976931348623157e308", "2.2250738585072014E-308", "0.0000000000000000001", "1e1000000", "1e0000005",
                "0e99999999");
        for (String s : fallBack) {
            assertThat(check(s)).as("fall back for %s", s).isFalse();
        }
        // 2^53 + 1 rounds to even, as parseDouble rounds it
        assertThat(DecimalParser.parse("9007199254740993")).isEqualTo(9007199254740992.0);
        assertThat(Double.doubleToRawLongBits(DecimalParser.parse("-0"))).isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(Double.doubleToRawLongBits(DecimalParser.parse("-0.0000e5"))).isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(DecimalParser.parse("1e-400")).isEqualTo(0.0); // a finite literal: zero, as parseDouble reads it
    }

    @Test
    void textThatIsNotANumberIsRefusedAsBefore() {
        List<String> refused = new ArrayList<>(List.of("", "NaN", "-NaN", "+NaN", "Infinity", "-Infinity", "+Infinity", "inf",
                "1e400", "-1e400", "0x1p3", "0X10", "1d", "1D", "1f", "1.5F", ".", "-", "+", "e5", "E5", "1e", "1e+", "1e-",
                "1e-a", "1ea", " 1", "1,5", "1_000", "--1", "+-1", "1..2", "1.2.3", "1e5.5", "1e5e5", "abc", "a1", "1a",
                "?", "NA", "\u0661\u0662", "1\u0661", "\uFF11"));
        for (String s : refused) {
            check(s);
            assertThat(DecimalParser.parse(s)).as("'%s' is not a number", s).isNaN();
        }
        // text the loader reads as a number although the fast path does not (parseDouble trims trailing control
        // characters and spaces; the readers trim the fields before)
        assertThat(DecimalParser.parse("1e0000000000000005")).isEqualTo(1e5);
        assertThat(check("1 ")).isFalse();
        assertThat(DecimalParser.parse("1 ")).isEqualTo(1.0);
        assertThat(check("0.5\u0000")).isFalse();
        assertThat(DecimalParser.parse("0.5\u0000")).isEqualTo(0.5);
        assertThat(DecimalParser.parse("0x1p3d")).isNaN();
    }
}
