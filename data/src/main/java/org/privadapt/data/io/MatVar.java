package org.privadapt.data.io;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.privadapt.data.DataException;
import org.privadapt.data.PrivateText;
import us.hebi.matlab.mat.types.Array;
import us.hebi.matlab.mat.types.Matrix;

/**
 * One variable of a MAT file ({@link MatLoader}), and how the features and the labels are found among them: by name,
 * or by shape when not named.
 */
final class MatVar {
    final String name;
    final Array array;
    final int rows;
    final int cols;

    MatVar(String name, Array array) {
        this.name = name;
        this.array = array;
        int[] dims = array.getDimensions();
        this.rows = dims.length == 2 ? dims[0] : -1;
        this.cols = dims.length == 2 ? dims[1] : -1;
    }

    boolean numeric() {
        if (!(array instanceof Matrix m) || rows < 0) {
            return false;
        }
        switch (array.getType()) {
            case Cell:
            case Structure:
            case Object:
            case Character:
            case Function:
            case Opaque:
                return false;
            default:
                return !m.isComplex();
        }
    }

    boolean isVector() {
        return rows == 1 || cols == 1;
    }

    int length() {
        return Math.max(rows, cols);
    }

    boolean integral() {
        if (!numeric() || !isVector()) {
            return false;
        }
        Matrix m = (Matrix) array;
        int n = length();
        for (int i = 0; i < n; i++) {
            double v = cols == 1 ? value(m, i, 0) : value(m, 0, i);
            if (v != Math.rint(v)) {
                return false;
            }
        }
        return true;
    }

    String shape() {
        int[] d = array.getDimensions();
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < d.length; k++) {
            sb.append(k == 0 ? "" : "x").append(d[k]);
        }
        return sb.toString();
    }

    String typeName() {
        return array.getType().toString().toLowerCase(Locale.ROOT);
    }

    // ------------------------------------------------------------------ finding the features and the labels

    static MatVar find(List<MatVar> vars, String name) {
        for (MatVar v : vars) {
            if (v.name.equals(name)) {
                return v;
            }
        }
        return null;
    }

    static MatVar named(Path file, List<MatVar> vars, String name, String role) throws DataException {
        for (MatVar v : vars) {
            if (v.name.equals(name)) {
                return v;
            }
        }
        throw new DataException(file, null, "no variable '" + name + "' for the " + role + "; the file holds " + listing(vars));
    }

    static String listing(List<MatVar> vars) {
        if (vars.isEmpty()) {
            return "no variables";
        }
        StringBuilder sb = new StringBuilder();
        for (MatVar v : vars) {
            sb.append(sb.length() == 0 ? "" : ", ").append(v.name).append(" (").append(PrivateText.value(v.shape())).append(' ')
                    .append(v.typeName()).append(')');
        }
        return sb.toString();
    }

    static MatVar[] autoPair(Path file, List<MatVar> vars) throws DataException {
        List<MatVar[]> pairs = new ArrayList<>();
        List<MatVar> matrices = new ArrayList<>();
        for (MatVar f : vars) {
            if (!f.numeric() || f.isVector() || f.rows < 1 || f.cols < 1) {
                continue;
            }
            matrices.add(f);
            for (MatVar l : vars) {
                if (l != f && l.numeric() && l.isVector() && l.length() > 1
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
            if (f != labels && f.numeric() && !f.isVector() && (f.rows == labels.length() || f.cols == labels.length())) {
                cands.add(f);
            }
        }
        if (cands.size() != 1) {
            throw new DataException(file, null, (cands.isEmpty() ? "no" : "more than one") + " matrix matches the "
                    + PrivateText.count(labels.length()) + " labels in '" + labels.name + "' among " + listing(vars) + "; name it with --features-var");
        }
        return cands.get(0);
    }

    static MatVar autoLabels(List<MatVar> vars, MatVar features) {
        MatVar found = null;
        for (MatVar l : vars) {
            if (l != features && l.numeric() && l.isVector() && l.length() > 1
                    && (features.rows == l.length() || features.cols == l.length())) {
                if (found != null) {
                    return null; // ambiguous: leave unlabelled rather than guess
                }
                found = l;
            }
        }
        return found;
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
            case UInt64: {
                long v = m.getLong(i, j);
                return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
            }
            default:
                return m.getDouble(i, j);
        }
    }
}
