package org.privadapt.data;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

/**
 * Multi-label binary targets: an n x L matrix of 0/1 values, row i holding which of the L named labels apply to
 * example i (any number of them, none included). Two label sets are comparable only if their name lists are equal.
 * Immutable; stored row-major as booleans.
 */
public final class MultiLabels implements Labels {
    private final boolean[] values; // row-major, n * L
    private final int rows;
    private final List<String> names;

    /**
     * Labels from a 0/1 matrix, one row per example and one column per label.
     *
     * @throws IllegalArgumentException when there are no labels, names are blank or repeated, a row has the wrong
     *                                  length, or a value is neither 0 nor 1 (naming the row and label)
     */
    public MultiLabels(int[][] matrix, List<String> names) {
        this.names = checkNames(names);
        int l = this.names.size();
        this.rows = matrix.length;
        this.values = new boolean[rows * l];
        for (int i = 0; i < rows; i++) {
            if (matrix[i] == null || matrix[i].length != l) {
                throw new IllegalArgumentException("row " + PrivateText.row(i) + " has " + (matrix[i] == null ? 0 : matrix[i].length)
                        + " values for " + l + " labels");
            }
            for (int j = 0; j < l; j++) {
                int v = matrix[i][j];
                if (v != 0 && v != 1) {
                    throw new IllegalArgumentException("value " + PrivateText.value(v) + " at row " + PrivateText.row(i)
                            + ", label '" + this.names.get(j) + "' is not 0 or 1");
                }
                values[i * l + j] = v == 1;
            }
        }
    }

    private MultiLabels(boolean[] values, int rows, List<String> names) {
        this.values = values;
        this.rows = rows;
        this.names = names;
    }

    private static List<String> checkNames(List<String> names) {
        List<String> copy = List.copyOf(names);
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("multi-label targets need at least one label name");
        }
        HashSet<String> seen = new HashSet<>();
        for (String s : copy) {
            if (s.isBlank()) {
                throw new IllegalArgumentException("blank label name in " + copy);
            }
            if (!seen.add(s)) {
                throw new IllegalArgumentException("label name '" + s + "' repeated in " + copy);
            }
        }
        return copy;
    }

    @Override
    public int size() {
        return rows;
    }

    /** The number of labels L. */
    public int numLabels() {
        return names.size();
    }

    /** The label names, in column order. */
    public List<String> names() {
        return names;
    }

    /** Whether label {@code j} applies to row {@code i}. */
    public boolean has(int i, int j) {
        if (i < 0 || i >= rows || j < 0 || j >= names.size()) {
            throw new IndexOutOfBoundsException("(" + i + ", " + j + ") outside " + rows + " x " + names.size());
        }
        return values[i * names.size() + j];
    }

    /** Row {@code i} as 0/1 values (a copy). */
    public int[] row(int i) {
        int l = names.size();
        int[] out = new int[l];
        for (int j = 0; j < l; j++) {
            out[j] = has(i, j) ? 1 : 0;
        }
        return out;
    }

    /** Column {@code j} (one label over all rows) as 0/1 values (a copy). */
    public int[] column(int j) {
        int[] out = new int[rows];
        for (int i = 0; i < rows; i++) {
            out[i] = has(i, j) ? 1 : 0;
        }
        return out;
    }

    /** The whole matrix as 0/1 values (a copy, n x L). */
    public int[][] matrix() {
        int[][] out = new int[rows][];
        for (int i = 0; i < rows; i++) {
            out[i] = row(i);
        }
        return out;
    }

    /** Per label, the number of rows where it applies (positive examples). */
    public int[] positiveCounts() {
        int l = names.size();
        int[] c = new int[l];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < l; j++) {
                if (values[i * l + j]) {
                    c[j]++;
                }
            }
        }
        return c;
    }

    @Override
    public MultiLabels selectRows(int[] idx) {
        int l = names.size();
        boolean[] out = new boolean[idx.length * l];
        for (int t = 0; t < idx.length; t++) {
            if (idx[t] < 0 || idx[t] >= rows) {
                throw new IndexOutOfBoundsException("row " + idx[t] + " outside [0, " + rows + ")");
            }
            System.arraycopy(values, idx[t] * l, out, t * l, l);
        }
        return new MultiLabels(out, idx.length, names);
    }

    @Override
    public String toString() {
        return "MultiLabels(" + rows + " rows, labels " + names + ", positives " + Arrays.toString(positiveCounts()) + ")";
    }
}
