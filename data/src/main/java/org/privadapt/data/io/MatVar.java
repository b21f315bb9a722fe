package org.privadapt.data.io;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.privadapt.data.DataException;
import org.privadapt.data.PrivateText;
import us.hebi.matlab.mat.types.Array;
import us.hebi.matlab.mat.types.Cell;
import us.hebi.matlab.mat.types.Matrix;

/**
 * One variable of a MAT file ({@link MatLoader}), or one element of a cell array named as MATLAB names it
 * ({@code feature{3}}, {@code features{2}{17}}, {@code X{1,4}}), and how the features and the labels are found among
 * them: by name, or by shape when not named.
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

    // ------------------------------------------------------------------ references into cell arrays

    /**
     * Resolves a reference: a variable's name, then any number of 1-based cell indices in braces, one linear index
     * ({@code {3}}) or row and column ({@code {1,3}}) each.
     *
     * @return null when the file holds no variable of that name
     * @throws DataException when an index is malformed, out of range or applied to something that is not a cell
     */
    static MatVar resolve(Path file, List<MatVar> vars, String ref) throws DataException {
        String r = ref.trim();
        int brace = r.indexOf('{');
        String base = (brace < 0 ? r : r.substring(0, brace)).trim();
        MatVar top = null;
        for (MatVar v : vars) {
            if (v.name.equals(base)) {
                top = v;
                break;
            }
        }
        if (top == null || brace < 0) {
            return top;
        }
        Array a = top.array;
        StringBuilder path = new StringBuilder(base);
        int pos = brace;
        while (pos < r.length()) {
            if (r.charAt(pos) != '{') {
                throw new DataException(file, null, "cannot read the reference '" + ref + "': expected '{' at character "
                        + (pos + 1) + " (write a cell element as name{3} or name{1,3}, nested as name{2}{5})");
            }
            int close = r.indexOf('}', pos);
            if (close < 0) {
                throw new DataException(file, null, "cannot read the reference '" + ref + "': missing '}'");
            }
            String inside = r.substring(pos + 1, close);
            if (!(a instanceof Cell c)) {
                throw new DataException(file, "variable '" + path + "'", "is a " + a.getType().toString().toLowerCase(Locale.ROOT)
                        + ", not a cell array, so '" + ref + "' does not name anything");
            }
            int index = cellIndex(file, c, inside, path.toString(), ref);
            a = c.get(index);
            path.append('{').append(inside.trim()).append('}');
            pos = close + 1;
            while (pos < r.length() && r.charAt(pos) == ' ') {
                pos++;
            }
        }
        return new MatVar(path.toString(), a);
    }

    private static int cellIndex(Path file, Cell c, String inside, String path, String ref) throws DataException {
        String[] parts = inside.split(",", -1);
        int[] idx = new int[parts.length];
        for (int k = 0; k < parts.length; k++) {
            try {
                idx[k] = Integer.parseInt(parts[k].trim());
            } catch (NumberFormatException e) {
                throw new DataException(file, null, "cannot read the reference '" + ref + "': '{" + inside
                        + "}' is not a 1-based cell index (write name{3} or name{1,3})");
            }
        }
        int[] d = c.getDimensions();
        int linear;
        if (idx.length == 1) {
            linear = idx[0] - 1;
            if (idx[0] < 1 || idx[0] > c.getNumElements()) {
                throw new DataException(file, "variable '" + path + "'", "has " + PrivateText.count(c.getNumElements()) + " cells ("
                        + PrivateText.value(dims(c)) + "), so '" + ref + "' is out of range (cell indices start at 1)");
            }
        } else if (idx.length == 2 && d.length == 2) {
            if (idx[0] < 1 || idx[0] > d[0] || idx[1] < 1 || idx[1] > d[1]) {
                throw new DataException(file, "variable '" + path + "'", "is a " + PrivateText.value(dims(c)) + " cell, so '" + ref
                        + "' is out of range (cell indices start at 1)");
            }
            linear = (idx[0] - 1) + (idx[1] - 1) * d[0];
        } else {
            throw new DataException(file, null, "cannot read the reference '" + ref + "': give one index or a row and a column");
        }
        return linear;
    }

    // ------------------------------------------------------------------ finding the features and the labels

    static MatVar find(Path file, List<MatVar> vars, String ref) throws DataException {
        return resolve(file, vars, ref);
    }

    static MatVar named(Path file, List<MatVar> vars, String ref, String role) throws DataException {
        MatVar v = resolve(file, vars, ref);
        if (v == null) {
            throw new DataException(file, null, "no variable '" + baseName(ref) + "' for the " + role + "; the file holds " + listing(vars));
        }
        return v;
    }

    private static String baseName(String ref) {
        int brace = ref.indexOf('{');
        return (brace < 0 ? ref : ref.substring(0, brace)).trim();
    }

    static String listing(List<MatVar> vars) {
        if (vars.isEmpty()) {
            return "no variables";
        }
        StringBuilder sb = new StringBuilder();
        for (MatVar v : vars) {
            sb.append(sb.length() == 0 ? "" : ", ").append(v.name).append(" (")
                    .append(v.isCell() ? v.listed() : PrivateText.value(v.shape()) + " " + v.typeName()).append(')');
        }
        MatVar cell = vars.stream().filter(v -> v.isCell() && v.numeric()).findFirst().orElse(null);
        if (cell != null) {
            sb.append("; cell arrays are read when named: --features-var '").append(cell.name).append("{1}' for one cell "
                    + "(its labels are then looked for in the same cell of another cell array), --features-var ")
                    .append(cell.name).append(" for all its cells stacked");
        }
        return sb.toString();
    }

    static MatVar[] autoPair(Path file, List<MatVar> vars) throws DataException {
        List<MatVar[]> pairs = new ArrayList<>();
        List<MatVar> matrices = new ArrayList<>();
        for (MatVar f : vars) {
            if (f.isCell() || !f.numeric() || f.isVector() || f.rows < 1 || f.cols < 1) {
                continue;
            }
            matrices.add(f);
            for (MatVar l : vars) {
                if (l != f && !l.isCell() && l.numeric() && l.isVector() && l.length() > 1
                        && (f.rows == l.length() || f.cols == l.length())) {
                    pairs.add(new MatVar[] {f, l});
                }
            }
        }
        if (pairs.size() == 1) {
            return pairs.get(0);
        }
        if (pairs.size() > 1) {
            // prefer the unique pair whose label vector holds integers (class labels)
            List<MatVar[]> integral = new ArrayList<>();
            for (MatVar[] p : pairs) {
                if (p[1].integral()) {
                    integral.add(p);
                }
            }
            if (integral.size() == 1) {
                return integral.get(0);
            }
            // files that keep split indices beside the data (the DeCAF files: fea/gnd with source_idx/source_label,
            // target_idx/target_label) hold several matching pairs; the features are the one matrix clearly larger
            // than every other candidate (at least 4x the entries), else it is ambiguous
            List<MatVar[]> cands = integral.isEmpty() ? pairs : integral;
            MatVar[] best = null;
            long second = 0;
            for (MatVar[] p : cands) {
                long size = (long) p[0].rows * p[0].cols;
                if (best == null || size > (long) best[0].rows * best[0].cols) {
                    if (best != null) {
                        second = Math.max(second, (long) best[0].rows * best[0].cols);
                    }
                    best = p;
                } else if (p[0] != best[0]) {
                    second = Math.max(second, size);
                }
            }
            MatVar bestFeatures = best == null ? null : best[0];
            long withBest = cands.stream().filter(p -> p[0] == bestFeatures).count();
            if (best != null && withBest == 1 && (long) best[0].rows * best[0].cols >= 4 * second) {
                return best;
            }
            throw new DataException(file, null, "cannot tell features from labels among " + listing(vars)
                    + "; name them with --features-var and --labels-var (--source-features-var/--target-features-var "
                    + "when one file holds both domains)");
        }
        if (matrices.size() == 1) {
            return new MatVar[] {matrices.get(0), null};
        }
        throw new DataException(file, null, (matrices.isEmpty() ? "no numeric n x d matrix" : "several candidate feature matrices")
                + " among " + listing(vars) + "; name them with --features-var and --labels-var");
    }

    static MatVar autoFeatures(Path file, List<MatVar> vars, MatVar labels) throws DataException {
        List<MatVar> cands = new ArrayList<>();
        for (MatVar f : vars) {
            if (f != labels && !f.isCell() && f.numeric() && !f.isVector() && (f.rows == labels.length() || f.cols == labels.length())) {
                cands.add(f);
            }
        }
        if (cands.size() != 1) {
            throw new DataException(file, null, (cands.isEmpty() ? "no" : "more than one") + " matrix matches the "
                    + PrivateText.count(labels.length()) + " labels in '" + labels.name + "' among " + listing(vars) + "; name it with --features-var");
        }
        return cands.get(0);
    }

    /**
     * The labels that go with named features: the one numeric vector of matching length; for a cell element
     * ({@code feature{3}}) or a whole cell, also the same element of every other cell array of the same shape
     * ({@code label{3}}). Null when there is none or more than one (left unlabelled rather than guessed).
     */
    static MatVar autoLabels(Path file, List<MatVar> vars, MatVar features) throws DataException {
        List<MatVar> cands = new ArrayList<>();
        String base = baseName(features.name);
        String path = features.name.substring(base.length());
        MatVar top = null;
        for (MatVar v : vars) {
            if (v.name.equals(base)) {
                top = v;
            }
        }
        for (MatVar l : vars) {
            if (l == top || l.name.equals(base)) {
                continue;
            }
            if (!l.isCell()) {
                cands.add(l);
            } else if (top != null && top.isCell() && java.util.Arrays.equals(l.array.getDimensions(), top.array.getDimensions())) {
                MatVar same = resolveQuietly(file, vars, l.name + path);
                if (same != null) {
                    cands.add(same);
                }
            }
        }
        MatVar found = null;
        for (MatVar c : cands) {
            MatVar l = c.asVector();
            if (l == null || l.length() <= 1 || !matchesSomeLayout(features, l.length())) {
                continue;
            }
            if (found != null) {
                return null; // ambiguous: leave unlabelled rather than guess
            }
            found = l;
        }
        return found;
    }

    private static MatVar resolveQuietly(Path file, List<MatVar> vars, String ref) {
        try {
            return resolve(file, vars, ref);
        } catch (DataException e) {
            return null; // that cell array has another structure: not a candidate
        }
    }

    private static boolean matchesSomeLayout(MatVar features, int n) {
        for (MatVar f : features.layouts()) {
            if (f.rows == n || f.cols == n) {
                return true;
            }
        }
        return false;
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
