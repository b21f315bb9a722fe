package org.privadapt.methods.testdata;

import java.util.List;
import java.util.SplittableRandom;
import org.privadapt.data.Dataset;
import org.privadapt.data.MultiLabels;
import org.privadapt.data.PublicFacts;
import org.privadapt.math.DenseMatrix;

/** A small generated multi-label shift for the methods that take multi-label targets (paper 004's, PRIMA). */
public final class MultiLabelShift {
    /** The three labels. */
    public static final List<String> LABELS = List.of("a", "b", "c");

    private MultiLabelShift() {
    }

    /**
     * n rows in d dimensions, uniform on [-1, 1]; label j is on when feature j exceeds 0.3 (so about 35 % of rows have
     * it, and it is learnable from the features); the other features are shifted by {@code shift} (the target's shift).
     * The size, labels and layout are declared public.
     */
    public static Dataset data(String name, int n, int d, double shift, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(n, d);
        int[][] y = new int[n][LABELS.size()];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x.set(i, j, r.nextDouble() * 2 - 1 + (j >= LABELS.size() ? shift : 0));
            }
            for (int j = 0; j < LABELS.size(); j++) {
                y[i][j] = x.get(i, j) > 0.3 ? 1 : 0;
            }
        }
        return new Dataset(name, x, new MultiLabels(y, LABELS), null, null)
                .withPublicFacts(new PublicFacts("test", "test", "test", false));
    }
}
