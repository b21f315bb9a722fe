package org.privadapt.data.io;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.privadapt.data.DataException;
import org.privadapt.data.PrivateText;
import us.hebi.matlab.mat.types.Array;
import us.hebi.matlab.mat.types.Cell;

/**
 * Finding a MAT file's features and labels among its variables ({@link MatVar}): by reference (a variable's name and
 * cell indices as MATLAB writes them, {@code feature{3}}, {@code X{1,4}}), or, when not named, by shape (the labels a
 * vector whose length matches one of the features' stackings).
 */
final class MatVarLookup {
    private MatVarLookup() {
    }


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
                        + PrivateText.value(MatVar.dims(c)) + "), so '" + ref + "' is out of range (cell indices start at 1)");
            }
        } else if (idx.length == 2 && d.length == 2) {
            if (idx[0] < 1 || idx[0] > d[0] || idx[1] < 1 || idx[1] > d[1]) {
                throw new DataException(file, "variable '" + path + "'", "is a " + PrivateText.value(MatVar.dims(c)) + " cell, so '" + ref
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
}
