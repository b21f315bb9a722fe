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
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import us.hebi.matlab.mat.format.Mat5;
import us.hebi.matlab.mat.format.Mat5File;
import us.hebi.matlab.mat.types.Array;
import us.hebi.matlab.mat.types.MatFile;
import us.hebi.matlab.mat.types.Matrix;
import us.hebi.matlab.mat.types.Sparse;
import us.hebi.matlab.mat.types.Sources;

/**
 * Loads a MATLAB Level-5 MAT-file (compressed or not) with the mfl-core library. Every numeric matrix type is
 * accepted (double, single, (u)int8..64, logical, sparse). The features are the n x d matrix and the labels
 * the n x 1 (or 1 x n) vector; both are found automatically or named explicitly.
 *
 * <p>Before parsing, the file's framing is checked ({@link MatFraming}: header, element sizes, zlib streams) so that a
 * truncated or corrupt file is reported with the byte offset of the broken variable rather than a library
 * stack trace. The variables are found by {@link MatVar}.
 */
public final class MatLoader {
    private MatLoader() {
    }

    /**
     * Which variables to use; null means find automatically. With {@code labelsOptional} a named labels variable
     * that the file does not hold leaves the data unlabelled instead of failing (an adaptation target).
     */
    public record Options(String featuresVar, String labelsVar, boolean labelsOptional) {
        public static final Options AUTO = new Options(null, null, false);

        public Options(String featuresVar, String labelsVar) {
            this(featuresVar, labelsVar, false);
        }
    }

    public static Dataset load(Path file, String domain, Options options) throws DataException {
        byte[] bytes = Files2.readAll(file);
        MatFraming.check(file, bytes);
        Mat5File mat = open(file, bytes);
        try {
            return build(file, bytes, domain, options, variables(mat));
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

    private static Dataset build(Path file, byte[] bytes, String domain, Options options, List<MatVar> vars) throws DataException {
        MatVar featuresVar;
        MatVar labelsVar;
        if (options.featuresVar() != null) {
            featuresVar = MatVar.named(file, vars, options.featuresVar(), "features");
            if (!featuresVar.numeric()) {
                throw new DataException(file, "variable '" + featuresVar.name + "'",
                        "is a " + featuresVar.typeName() + ", not a numeric matrix");
            }
            if (options.labelsVar() != null && options.labelsOptional() && MatVar.find(vars, options.labelsVar()) == null) {
                labelsVar = null;
            } else {
                labelsVar = options.labelsVar() != null ? MatVar.named(file, vars, options.labelsVar(), "labels")
                        : MatVar.autoLabels(vars, featuresVar);
            }
        } else if (options.labelsVar() != null) {
            labelsVar = MatVar.named(file, vars, options.labelsVar(), "labels");
            featuresVar = MatVar.autoFeatures(file, vars, labelsVar);
        } else {
            MatVar[] pair = MatVar.autoPair(file, vars);
            featuresVar = pair[0];
            labelsVar = pair[1];
        }
        if (labelsVar != null && !labelsVar.isVector()) {
            throw new DataException(file, "variable '" + labelsVar.name + "'",
                    "labels must be a vector, found " + PrivateText.value(labelsVar.shape()));
        }
        int n;
        boolean transpose;
        if (labelsVar != null) {
            n = labelsVar.length();
            if (featuresVar.rows == n) {
                transpose = false;
            } else if (featuresVar.cols == n) {
                transpose = true;
            } else {
                throw new DataException(file, "variable '" + featuresVar.name + "'", "features " + PrivateText.value(featuresVar.shape())
                        + " do not match " + PrivateText.count(n) + " labels in '" + labelsVar.name + "'");
            }
        } else {
            transpose = false;
            n = featuresVar.rows;
        }
        FeatureMatrix x = toFeatures(featuresVar.array, transpose);
        Labels y = labelsVar == null ? null : toLabels(file, labelsVar);
        String detail = "features=" + featuresVar.name + " (" + featuresVar.shape() + " " + featuresVar.typeName()
                + (transpose ? ", transposed" : "") + ")"
                + (labelsVar == null ? ", no labels" : ", labels=" + labelsVar.name + " (" + labelsVar.shape() + " "
                + labelsVar.typeName() + ")");
        Provenance prov = Provenance.of(new Provenance.SourceFile(file.toString(), Files2.sha256(bytes), "MAT v5", detail));
        Dataset d = new Dataset(domain, x, y, null, prov);
        if (n == 0) {
            throw new DataException(file, "variable '" + featuresVar.name + "'", "has no rows");
        }
        return d.requireFinite();
    }

    /** The names and shapes of every variable in the file (for listings and error messages). */
    public static List<String> describe(Path file) throws DataException {
        byte[] bytes = Files2.readAll(file);
        MatFraming.check(file, bytes);
        List<String> out = new ArrayList<>();
        try (Mat5File mat = open(file, bytes)) {
            for (MatVar v : variables(mat)) {
                out.add(v.name + " " + v.shape() + " " + v.typeName());
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

    private static FeatureMatrix toFeatures(Array a, boolean transpose) {
        Matrix m = (Matrix) a;
        int r = m.getNumRows();
        int c = m.getNumCols();
        int n = transpose ? c : r;
        int d = transpose ? r : c;
        if (m instanceof Sparse s) {
            // collect triplets, then build CSR in row order
            List<double[]> trip = new ArrayList<>();
            s.forEach((row, col, real, imag) -> {
                if (real != 0) {
                    trip.add(transpose ? new double[] {col, row, real} : new double[] {row, col, real});
                }
            });
            trip.sort((p, q) -> p[0] != q[0] ? Double.compare(p[0], q[0]) : Double.compare(p[1], q[1]));
            int[] start = new int[n + 1];
            int[] ci = new int[trip.size()];
            double[] v = new double[trip.size()];
            for (int k = 0; k < trip.size(); k++) {
                double[] t = trip.get(k);
                start[(int) t[0] + 1]++;
                ci[k] = (int) t[1];
                v[k] = t[2];
            }
            for (int i = 0; i < n; i++) {
                start[i + 1] += start[i];
            }
            return new CsrMatrix(n, d, start, ci, v);
        }
        DenseMatrix x = DenseMatrix.zeros(n, d);
        double[] data = x.data();
        if (!transpose) {
            for (int j = 0; j < c; j++) {
                for (int i = 0; i < r; i++) {
                    data[i + j * n] = MatVar.value(m, i, j);
                }
            }
        } else {
            for (int j = 0; j < c; j++) {
                for (int i = 0; i < r; i++) {
                    data[j + i * n] = MatVar.value(m, i, j);
                }
            }
        }
        return x;
    }

    private static Labels toLabels(Path file, MatVar l) throws DataException {
        Matrix m = (Matrix) l.array;
        int n = l.length();
        double[] v = new double[n];
        boolean col = m.getNumCols() == 1;
        for (int i = 0; i < n; i++) {
            v[i] = col ? MatVar.value(m, i, 0) : MatVar.value(m, 0, i);
            if (!Double.isFinite(v[i])) {
                throw new DataException(file, "variable '" + l.name + "', element " + PrivateText.row(i + 1),
                        "label " + PrivateText.value(v[i]) + " is not a finite number");
            }
        }
        return l.integral() ? ClassLabels.fromValues(v) : new RealTargets(v, l.name);
    }
}
