package org.privadapt.data.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.Labels;
import org.privadapt.data.PrivateText;
import org.privadapt.data.Provenance;
import org.privadapt.data.RealTargets;
import org.privadapt.math.FeatureMatrix;
import us.hebi.matlab.mat.format.Mat5;
import us.hebi.matlab.mat.format.Mat5File;
import us.hebi.matlab.mat.types.MatFile;
import us.hebi.matlab.mat.types.Sources;

/**
 * Loads a MATLAB Level-5 MAT-file (compressed or not) with the mfl-core library. Every numeric matrix type is
 * accepted (double, single, (u)int8..64, logical, sparse; a double variable stored in a smaller type, such as
 * labels written as miUINT8, is widened). The features are the n x d matrix and the labels the n x 1 (or 1 x n)
 * vector; both are found automatically or named explicitly. A cell array is read when named: one cell as MATLAB
 * names it ({@code feature{3}}, whose labels are then found in the same cell of another cell array, {@code label{3}})
 * or all its matrices stacked ({@link MatVar}). Sparse matrices stay sparse ({@link MatMatrices}).
 *
 * <p>Before parsing, the file's framing is checked ({@link MatFraming}: header, element sizes, zlib streams, the
 * sub-elements of every matrix and cell) so that a truncated or corrupt file is reported with the byte offset of the
 * broken variable rather than a library stack trace. The variables are found by {@link MatVar}.
 */
public final class MatLoader {
    private MatLoader() {
    }

    /** Whether the features hold one observation per row or per column. */
    public enum Orientation {
        /** Found from the labels' count (per row when it cannot tell, e.g. without labels). */
        AUTO,
        /** One observation per row (n x d). */
        ROWS,
        /** One observation per column (d x n, MATLAB's usual layout for text and images): read transposed. */
        COLUMNS
    }

    /**
     * Which variables to use; null means find automatically. With {@code labelsOptional} a named labels variable
     * that the file does not hold leaves the data unlabelled instead of failing (an adaptation target).
     * {@code orientation} says how observations are laid out when the file cannot tell (no labels).
     */
    public record Options(String featuresVar, String labelsVar, boolean labelsOptional, Orientation orientation) {
        public static final Options AUTO = new Options(null, null, false);

        public Options {
            orientation = orientation == null ? Orientation.AUTO : orientation;
        }

        public Options(String featuresVar, String labelsVar, boolean labelsOptional) {
            this(featuresVar, labelsVar, labelsOptional, Orientation.AUTO);
        }

        public Options(String featuresVar, String labelsVar) {
            this(featuresVar, labelsVar, false);
        }

        /** The same variables, observations laid out as given. */
        public Options withOrientation(Orientation o) {
            return new Options(featuresVar, labelsVar, labelsOptional, o);
        }
    }

    /** One dataset to read from a file: its domain name and variables ({@link #loadAll}). */
    public record Request(String domain, Options options) {
    }

    public static Dataset load(Path file, String domain, Options options) throws DataException {
        return loadAll(file, List.of(new Request(domain, options))).get(0);
    }

    /**
     * Several datasets from one file, parsed once: e.g. one per cell of a cell array ({@code feature{1}},
     * {@code feature{2}}, ...) or the source and the target of a file holding both.
     */
    public static List<Dataset> loadAll(Path file, List<Request> requests) throws DataException {
        byte[] bytes = Files2.readAll(file);
        MatFraming.check(file, bytes);
        String sha = Files2.sha256(bytes);
        Mat5File mat = open(file, bytes);
        try {
            List<MatVar> vars = variables(mat);
            List<Dataset> out = new ArrayList<>();
            for (Request r : requests) {
                out.add(build(file, sha, r.domain(), r.options(), vars));
            }
            return out;
        } catch (RuntimeException e) {
            throw new DataException(file, null, "unreadable MAT-file: " + PrivateText.foreign(e.getMessage()), e);
        } finally {
            try {
                mat.close();
            } catch (IOException ignored) {
                // buffers are released; nothing else to do
            }
        }
    }

    private static Dataset build(Path file, String sha, String domain, Options options, List<MatVar> vars) throws DataException {
        MatVar featuresVar;
        MatVar labelsVar;
        if (options.featuresVar() != null) {
            featuresVar = MatVarLookup.named(file, vars, options.featuresVar(), "features");
            requireNumeric(file, featuresVar);
            if (options.labelsVar() != null && options.labelsOptional() && MatVarLookup.find(file, vars, options.labelsVar()) == null) {
                labelsVar = null;
            } else {
                labelsVar = options.labelsVar() != null ? vector(file, MatVarLookup.named(file, vars, options.labelsVar(), "labels"))
                        : MatVarLookup.autoLabels(file, vars, featuresVar);
            }
        } else if (options.labelsVar() != null) {
            labelsVar = vector(file, MatVarLookup.named(file, vars, options.labelsVar(), "labels"));
            featuresVar = MatVarLookup.autoFeatures(file, vars, labelsVar);
        } else {
            MatVar[] pair = MatVarLookup.autoPair(file, vars);
            featuresVar = pair[0];
            labelsVar = pair[1];
        }
        int n;
        boolean transpose = false;
        if (labelsVar != null) {
            n = labelsVar.length();
            MatVar chosen = null;
            for (MatVar f : featuresVar.layouts()) {
                boolean rowsMatch = f.rows == n && options.orientation() != Orientation.COLUMNS;
                boolean colsMatch = f.cols == n && options.orientation() != Orientation.ROWS;
                if (rowsMatch || colsMatch) {
                    chosen = f;
                    // a square match: per row, except for matrices side by side (one observation per column)
                    transpose = !rowsMatch || (colsMatch && f.layout == MatVar.Layout.COLS);
                    break;
                }
            }
            if (chosen == null) {
                throw new DataException(file, "variable '" + featuresVar.name + "'", "features " + (featuresVar.isCell()
                        ? "(" + featuresVar.listed() + ")" : PrivateText.value(featuresVar.shape())) + " do not match "
                        + PrivateText.count(n) + " labels in '" + labelsVar.name + "'");
            }
            featuresVar = chosen;
        } else {
            // without labels: as told, else per row, except a cell of column vectors (one observation per cell)
            transpose = options.orientation() == Orientation.COLUMNS || (options.orientation() == Orientation.AUTO
                    && featuresVar.isCell() && featuresVar.layout == MatVar.Layout.COLS);
            n = transpose ? featuresVar.cols : featuresVar.rows;
        }
        FeatureMatrix x = MatMatrices.features(file, featuresVar, transpose);
        Labels y = labelsVar == null ? null : toLabels(file, labelsVar);
        String detail = "features=" + featuresVar.name + " (" + featuresVar.shape() + " " + featuresVar.typeName()
                + (transpose ? ", transposed" : "") + ")"
                + (labelsVar == null ? ", no labels" : ", labels=" + labelsVar.name + " (" + labelsVar.shape() + " "
                + labelsVar.typeName() + ")");
        Provenance prov = Provenance.of(new Provenance.SourceFile(file.toString(), sha, "MAT v5", detail));
        Dataset d = new Dataset(domain, x, y, null, prov);
        if (n == 0) {
            throw new DataException(file, "variable '" + featuresVar.name + "'", "has no rows");
        }
        return d.requireFinite();
    }

    private static void requireNumeric(Path file, MatVar v) throws DataException {
        if (v.numeric()) {
            return;
        }
        String what;
        if (!v.isCell()) {
            what = "is a " + v.typeName() + ", not a numeric matrix";
        } else if (v.leaves.isEmpty()) {
            what = "is a cell array holding something other than numeric matrices (or nothing)";
        } else {
            what = "is a cell array whose " + PrivateText.count(v.leaves.size()) + " matrices share neither their number of rows "
                    + "nor their number of columns, so they do not stack into one matrix; name one cell, e.g. '" + v.name + "{1}'";
        }
        throw new DataException(file, "variable '" + v.name + "'", what);
    }

    /** A labels variable read as a vector (a cell array's vectors one after the other). */
    private static MatVar vector(Path file, MatVar l) throws DataException {
        MatVar v = l.asVector();
        if (v == null) {
            throw new DataException(file, "variable '" + l.name + "'", "labels must be a vector, found " + (l.isCell()
                    ? l.listed() : PrivateText.value(l.shape()) + (l.numeric() ? "" : " " + l.typeName())));
        }
        return v;
    }

    /** The names and shapes of every variable in the file (for listings and error messages). */
    public static List<String> describe(Path file) throws DataException {
        byte[] bytes = Files2.readAll(file);
        MatFraming.check(file, bytes);
        List<String> out = new ArrayList<>();
        try (Mat5File mat = open(file, bytes)) {
            for (MatVar v : variables(mat)) {
                out.add(v.name + " " + (v.isCell() ? v.listed() : v.shape() + " " + v.typeName()));
            }
        } catch (IOException e) {
            throw new DataException(file, null, "unreadable MAT-file: " + PrivateText.foreign(e.getMessage()), e);
        }
        return out;
    }

    /** Parses the file; the caller closes it after reading the values (closing releases the buffers). */
    private static Mat5File open(Path file, byte[] bytes) throws DataException {
        try {
            return Mat5.newReader(Sources.wrap(bytes)).readMat();
        } catch (IOException | RuntimeException e) {
            throw new DataException(file, null, "unreadable MAT-file: " + PrivateText.foreign(e.getMessage()), e);
        }
    }

    private static List<MatVar> variables(Mat5File mat) {
        List<MatVar> vars = new ArrayList<>();
        for (MatFile.Entry e : mat.getEntries()) {
            vars.add(new MatVar(e.getName(), e.getValue()));
        }
        return vars;
    }

    private static Labels toLabels(Path file, MatVar l) throws DataException {
        double[] v = l.vector();
        for (int i = 0; i < v.length; i++) {
            if (!Double.isFinite(v[i])) {
                throw new DataException(file, "variable '" + l.name + "', element " + PrivateText.row(i + 1),
                        "label " + PrivateText.value(v[i]) + " is not a finite number");
            }
        }
        return l.integral() ? ClassLabels.fromValues(v) : new RealTargets(v, l.name);
    }
}
