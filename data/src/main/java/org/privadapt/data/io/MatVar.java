package org.privadapt.data.io;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.privadapt.data.PrivateText;
import us.hebi.matlab.mat.types.Array;
import us.hebi.matlab.mat.types.Cell;
import us.hebi.matlab.mat.types.Matrix;

/**
 * One variable of a MAT file ({@link MatLoader}), or one element of a cell array named as MATLAB names it
 * ({@code feature{3}}, {@code features{2}{17}}, {@code X{1,4}}); {@link MatVarLookup} finds the features and the labels
 * among them, by name or by shape.
 *
 * <p>A numeric matrix (dense or sparse) is read as it is. A cell array is read as the numeric matrices it holds
 * (its <i>leaves</i>, nested cells included, in MATLAB's column-major order) stacked into one matrix: on top of each
 * other when they share their number of columns ({@link Layout#ROWS}), side by side when they share their number of
 * rows ({@link Layout#COLS}), or, for labels, one vector after the other ({@link Layout#VECTOR}). When both stackings
 * are possible the one that matches the labels' count is used ({@link #layouts()}).
 */
final class MatVar {
    /** How the leaves are stacked. */
    enum Layout {
        /** A plain matrix (one leaf). */
        PLAIN,
        /** Leaves of equal column counts, on top of each other. */
        ROWS,
        /** Leaves of equal row counts, side by side. */
        COLS,
        /** Vector leaves, one after the other, as a column. */
        VECTOR
    }

    /** The reference, e.g. {@code X} or {@code feature{3}}. */
    final String name;
    /** The variable or cell element as stored. */
    final Array array;
    /** The numeric matrices it holds (itself for a matrix); empty when it is not numeric. */
    final List<Matrix> leaves;
    final Layout layout;
    final int rows;
    final int cols;

    MatVar(String name, Array array) {
        this(name, array, leavesOf(array), null);
    }

    private MatVar(String name, Array array, List<Matrix> leaves, Layout chosen) {
        this.name = name;
        this.array = array;
        this.leaves = leaves;
        Layout l = chosen;
        if (l == null) {
            l = array instanceof Cell ? defaultLayout(leaves) : Layout.PLAIN;
        }
        this.layout = l;
        int[] shape = l == null ? null : shapeOf(leaves, l);
        if (shape != null) {
            this.rows = shape[0];
            this.cols = shape[1];
        } else {
            int[] dims = array.getDimensions();
            this.rows = dims.length == 2 && !(array instanceof Cell) ? dims[0] : -1;
            this.cols = dims.length == 2 && !(array instanceof Cell) ? dims[1] : -1;
        }
    }

    /** True for a cell array (whose leaves are stacked). */
    boolean isCell() {
        return array instanceof Cell;
    }

    /** The same leaves stacked another way; null when they cannot be. */
    MatVar as(Layout l) {
        if (!isCell() || shapeOf(leaves, l) == null) {
            return null;
        }
        return new MatVar(name, array, leaves, l);
    }

    /** The stackings this cell's leaves allow, in order of preference ({@link Layout#ROWS} first); a matrix's own. */
    List<MatVar> layouts() {
        if (!isCell()) {
            return List.of(this);
        }
        List<MatVar> out = new ArrayList<>();
        for (Layout l : new Layout[] {Layout.ROWS, Layout.COLS}) {
            MatVar v = as(l);
            if (v != null) {
                out.add(v);
            }
        }
        return out;
    }

    /** This variable read as one vector (a labels variable); null when it is not one. */
    MatVar asVector() {
        if (!numeric()) {
            return null;
        }
        if (!isCell()) {
            return isVector() ? this : null;
        }
        return as(Layout.VECTOR);
    }

    boolean numeric() {
        if (rows < 0 || leaves.isEmpty()) {
            return false;
        }
        for (Matrix m : leaves) {
            if (m.isComplex()) {
                return false;
            }
        }
        return true;
    }

    boolean isVector() {
        return rows == 1 || cols == 1;
    }

    int length() {
        return Math.max(rows, cols);
    }

    /** True when any leaf is a sparse matrix (then the features are kept sparse). */
    boolean sparse() {
        for (Matrix m : leaves) {
            if (m instanceof us.hebi.matlab.mat.types.Sparse) {
                return true;
            }
        }
        return false;
    }

    /** The values of a vector variable, leaf after leaf, each in MATLAB's linear order. */
    double[] vector() {
        double[] v = new double[length()];
        int k = 0;
        for (Matrix m : leaves) {
            int e = m.getNumElements();
            for (int i = 0; i < e; i++) {
                v[k++] = value(m, i);
            }
        }
        return v;
    }

    boolean integral() {
        if (!numeric() || !isVector()) {
            return false;
        }
        for (double v : vector()) {
            if (v != Math.rint(v)) {
                return false;
            }
        }
        return true;
    }

    String shape() {
        if (isCell() && layout != null) {
            return rows + "x" + cols;
        }
        return dims(array);
    }

    String typeName() {
        if (isCell()) {
            return "cell " + dims(array) + " of " + leaves.size() + " " + leafTypes() + (layout == null ? ""
                    : ", " + (layout == Layout.ROWS ? "stacked as rows" : layout == Layout.COLS ? "side by side" : "one after the other"));
        }
        return array.getType().toString().toLowerCase(Locale.ROOT);
    }

    /** For listings: a cell's own shape and what it holds, a matrix's shape and type. */
    String listed() {
        if (isCell()) {
            return PrivateText.value(dims(array)) + " cell of " + PrivateText.count(leaves.size()) + " " + leafTypes();
        }
        return shape() + " " + typeName();
    }

    private String leafTypes() {
        if (leaves.isEmpty()) {
            return "non-numeric";
        }
        String t = leaves.get(0).getType().toString().toLowerCase(Locale.ROOT);
        String d = dims(leaves.get(0));
        boolean sameType = true;
        boolean sameShape = true;
        for (Matrix m : leaves) {
            sameType &= m.getType().toString().toLowerCase(Locale.ROOT).equals(t);
            sameShape &= dims(m).equals(d);
        }
        return (sameShape ? PrivateText.value(d) + " " : "") + (sameType ? t : "mixed");
    }

    static String dims(Array a) {
        int[] d = a.getDimensions();
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < d.length; k++) {
            sb.append(k == 0 ? "" : "x").append(d[k]);
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------ leaves and stacking

    /** A matrix itself; a cell's numeric leaves (empty ones skipped); none when anything in it is not numeric. */
    private static List<Matrix> leavesOf(Array a) {
        List<Matrix> out = new ArrayList<>();
        return collect(a, out) ? List.copyOf(out) : List.of();
    }

    private static boolean collect(Array a, List<Matrix> out) {
        if (a instanceof Cell c) {
            int n = c.getNumElements();
            for (int i = 0; i < n; i++) {
                if (!collect(c.get(i), out)) {
                    return false;
                }
            }
            return true;
        }
        if (!(a instanceof Matrix m) || a.getNumDimensions() != 2) {
            return false;
        }
        switch (a.getType()) {
            case Cell:
            case Structure:
            case Object:
            case Character:
            case Function:
            case Opaque:
                return false;
            default:
                if (m.getNumElements() > 0) {
                    out.add(m);
                }
                return true;
        }
    }

    private static Layout defaultLayout(List<Matrix> leaves) {
        if (leaves.isEmpty()) {
            return null;
        }
        // column vectors of more than one element are MATLAB's usual one-observation-per-column layout
        boolean columnVectors = leaves.stream().allMatch(m -> m.getNumCols() == 1 && m.getNumRows() > 1);
        if (columnVectors && shapeOf(leaves, Layout.COLS) != null) {
            return Layout.COLS;
        }
        for (Layout l : new Layout[] {Layout.ROWS, Layout.COLS, Layout.VECTOR}) {
            if (shapeOf(leaves, l) != null) {
                return l;
            }
        }
        return null;
    }

    /** The stacked shape, or null when the leaves do not stack that way. */
    private static int[] shapeOf(List<Matrix> leaves, Layout l) {
        if (leaves.isEmpty()) {
            return null;
        }
        long r = 0;
        long c = 0;
        Matrix first = leaves.get(0);
        for (Matrix m : leaves) {
            switch (l) {
                case PLAIN:
                    if (leaves.size() != 1) {
                        return null;
                    }
                    r = m.getNumRows();
                    c = m.getNumCols();
                    break;
                case ROWS:
                    if (m.getNumCols() != first.getNumCols()) {
                        return null;
                    }
                    r += m.getNumRows();
                    c = m.getNumCols();
                    break;
                case COLS:
                    if (m.getNumRows() != first.getNumRows()) {
                        return null;
                    }
                    r = m.getNumRows();
                    c += m.getNumCols();
                    break;
                default:
                    if (m.getNumRows() != 1 && m.getNumCols() != 1) {
                        return null;
                    }
                    r += m.getNumElements();
                    c = 1;
            }
        }
        if (r > Integer.MAX_VALUE || c > Integer.MAX_VALUE) {
            return null;
        }
        return new int[] {(int) r, (int) c};
    }

    /** Where each leaf starts in the stacked matrix: {row, column} offsets. */
    int[][] offsets() {
        int[][] off = new int[leaves.size()][2];
        int r = 0;
        int c = 0;
        for (int k = 0; k < leaves.size(); k++) {
            off[k][0] = r;
            off[k][1] = c;
            Matrix m = leaves.get(k);
            switch (layout) {
                case ROWS:
                    r += m.getNumRows();
                    break;
                case COLS:
                    c += m.getNumCols();
                    break;
                case VECTOR:
                    r += m.getNumElements();
                    break;
                default:
                    break;
            }
        }
        return off;
    }

    /** Element (i, j) as a double; unsigned integer types are read as unsigned. */
    static double value(Matrix m, int i, int j) {
        switch (m.getType()) {
            case UInt8:
                return Byte.toUnsignedInt(m.getByte(i, j));
            case UInt16:
                return Short.toUnsignedInt(m.getShort(i, j));
            case UInt32:
                return Integer.toUnsignedLong(m.getInt(i, j));
            case UInt64:
                return unsigned(m.getLong(i, j));
            default:
                return m.getDouble(i, j);
        }
    }

    /** Element {@code index} in MATLAB's linear (column-major) order, as {@link #value(Matrix, int, int)}. */
    static double value(Matrix m, int index) {
        if (m instanceof us.hebi.matlab.mat.types.Sparse) {
            // a sparse matrix's own one-argument accessors index its stored values, not the matrix
            int r = m.getNumRows();
            return m.getDouble(index % r, index / r);
        }
        switch (m.getType()) {
            case UInt8:
                return Byte.toUnsignedInt(m.getByte(index));
            case UInt16:
                return Short.toUnsignedInt(m.getShort(index));
            case UInt32:
                return Integer.toUnsignedLong(m.getInt(index));
            case UInt64:
                return unsigned(m.getLong(index));
            default:
                return m.getDouble(index);
        }
    }

    private static double unsigned(long v) {
        return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
    }
}
