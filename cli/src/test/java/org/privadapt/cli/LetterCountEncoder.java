package org.privadapt.cli;

import java.util.List;
import java.util.function.IntConsumer;
import org.privadapt.data.text.TextEncoder;

/**
 * A stand-in pretrained text encoder for the CLI's tests (found by ServiceLoader from the test resources, name
 * {@value #NAME}): 8 features per text, the counts of its letters by {@code (c - 'a') mod 8}, scaled to unit norm.
 * Row-local and fixed, as a real one; needs no model file.
 */
public final class LetterCountEncoder implements TextEncoder {
    public static final String NAME = "letter-counts";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String model() {
        return "letter counts mod 8 (tests)";
    }

    @Override
    public String hash() {
        return "0123456789abcdef".repeat(4);
    }

    @Override
    public int dimension() {
        return 8;
    }

    @Override
    public double[][] encode(List<String> texts, IntConsumer done) {
        double[][] x = new double[texts.size()][8];
        for (int i = 0; i < x.length; i++) {
            double s = 0;
            for (char c : texts.get(i).toLowerCase(java.util.Locale.ROOT).toCharArray()) {
                if (c >= 'a' && c <= 'z') {
                    x[i][(c - 'a') % 8]++;
                }
            }
            for (double v : x[i]) {
                s += v * v;
            }
            for (int j = 0; j < 8 && s > 0; j++) {
                x[i][j] /= Math.sqrt(s);
            }
        }
        done.accept(texts.size());
        return x;
    }
}
