package org.privadapt.data.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
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
 * <p>Before parsing, the file's framing is checked here (header, element sizes, zlib streams) so that a
 * truncated or corrupt file is reported with the byte offset of the broken variable rather than a library
 * stack trace.
 */
public final class MatLoader {
    private static final int HEADER = 128;
    private static final int MI_COMPRESSED = 15;

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
        checkFraming(file, bytes);
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

    private static Dataset build(Path file, byte[] bytes, String domain, Options options, List<Var> vars) throws DataException {
        Var featuresVar;
        Var labelsVar;
        if (options.featuresVar() != null) {
            featuresVar = named(file, vars, options.featuresVar(), "features");
            if (!featuresVar.numeric()) {
                throw new DataException(file, "variable '" + featuresVar.name + "'",
                        "is a " + featuresVar.typeName() + ", not a numeric matrix");
            }
            if (options.labelsVar() != null && options.labelsOptional() && find(vars, options.labelsVar()) == null) {
                labelsVar = null;
            } else {
                labelsVar = options.labelsVar() != null ? named(file, vars, options.labelsVar(), "labels")
                        : autoLabels(vars, featuresVar);
            }
        } else if (options.labelsVar() != null) {
            labelsVar = named(file, vars, options.labelsVar(), "labels");
            featuresVar = autoFeatures(file, vars, labelsVar);
        } else {
            Var[] pair = autoPair(file, vars);
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
        checkFraming(file, bytes);
        List<String> out = new ArrayList<>();
        try (Mat5File mat = open(file, bytes)) {
            for (Var v : variables(mat)) {
                out.add(v.name + " " + v.shape() + " " + v.typeName());
            }
        } catch (IOException e) {
            throw new DataException(file, null, "unreadable MAT-file: " + PrivateText.foreign(e.getMessage()), e);
        }
        return out;
    }

    // ------------------------------------------------------------------ framing check

    static void checkFraming(Path file, byte[] b) throws DataException {
        if (b.length >= 8 && b[0] == (byte) 0x89 && b[1] == 'H' && b[2] == 'D' && b[3] == 'F') {
            throw new DataException(file, "byte 0", "HDF5 (MAT v7.3) files are not supported; re-save with -v7");
        }
        String head = new String(b, 0, Math.min(b.length, 116), StandardCharsets.ISO_8859_1);
        if (head.startsWith("MATLAB 7.3")) {
            throw new DataException(file, "byte 0", "MAT v7.3 (HDF5) files are not supported; re-save with -v7");
        }
        if (b.length < HEADER || !head.startsWith("MATLAB 5.0 MAT-file")) {
            throw new DataException(file, "byte 0", b.length < HEADER
                    ? "file is " + PrivateText.count(b.length) + " bytes, too short for a MAT-file header (128 bytes)"
                    : "not a MATLAB Level-5 MAT-file (header does not start with 'MATLAB 5.0 MAT-file')");
        }
        ByteOrder order;
        if (b[126] == 'I' && b[127] == 'M') {
            order = ByteOrder.LITTLE_ENDIAN;
        } else if (b[126] == 'M' && b[127] == 'I') {
            order = ByteOrder.BIG_ENDIAN;
        } else {
            throw new DataException(file, "byte 126", "invalid endian indicator in MAT-file header");
        }
        ByteBuffer buf = ByteBuffer.wrap(b).order(order);
        int off = HEADER;
        int index = 0;
        while (off < b.length) {
            index++;
            if (b.length - off < 8) {
                throw new DataException(file, "byte " + PrivateText.row(off), "file ends inside the tag of variable #" + index + " (truncated)");
            }
            int type = buf.getInt(off);
            long size;
            if ((type >>> 16) != 0) { // small data element: size in the upper half, data within 8 bytes
                off += 8;
                continue;
            }
            size = Integer.toUnsignedLong(buf.getInt(off + 4));
            long end = off + 8L + size;
            if (end > b.length) {
                throw new DataException(file, "byte " + PrivateText.row(off), "variable #" + index + " declares " + PrivateText.count(size)
                        + " bytes but the file ends after " + PrivateText.count(b.length - off - 8) + " (truncated)");
            }
            if (type == MI_COMPRESSED) {
                checkInflates(file, b, off + 8, (int) size, index, off);
            }
            off = (int) (type == MI_COMPRESSED ? end : off + 8 + ((size + 7) & ~7L));
        }
    }

    private static void checkInflates(Path file, byte[] b, int from, int len, int index, int tagOffset) throws DataException {
        Inflater inf = new Inflater();
        try {
            inf.setInput(b, from, len);
            byte[] sink = new byte[1 << 16];
            while (!inf.finished()) {
                int r = inf.inflate(sink);
                if (r == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    throw new DataException(file, "byte " + PrivateText.row(tagOffset), "compressed variable #" + index
                            + " ends before its zlib stream is complete (truncated or corrupt)");
                }
            }
        } catch (DataFormatException e) {
            throw new DataException(file, "byte " + PrivateText.row(tagOffset), "compressed variable #" + index
                    + " is corrupt (zlib: " + e.getMessage() + ")");
        } finally {
            inf.end();
        }
    }

    // ------------------------------------------------------------------ parsing

    /** Parses the file; the caller closes it after reading the values (closing releases the buffers). */
    private static Mat5File open(Path file, byte[] bytes) throws DataException {
        try {
            return Mat5.newReader(Sources.wrap(bytes)).readMat();
        } catch (IOException | RuntimeException e) {
            throw new DataException(file, null, "unreadable MAT-file: " + PrivateText.foreign(e.getMessage()), e);
        }
    }

    private static List<Var> variables(Mat5File mat) {
        List<Var> vars = new ArrayList<>();
        for (MatFile.Entry e : mat.getEntries()) {
            vars.add(new Var(e.getName(), e.getValue()));
        }
        return vars;
    }

    private static Var find(List<Var> vars, String name) {
        for (Var v : vars) {
            if (v.name.equals(name)) {
                return v;
            }
        }
        return null;
    }

    private static Var named(Path file, List<Var> vars, String name, String role) throws DataException {
        for (Var v : vars) {
            if (v.name.equals(name)) {
                return v;
            }
        }
        throw new DataException(file, null, "no variable '" + name + "' for the " + role + "; the file holds " + listing(vars));
    }

    private static String listing(List<Var> vars) {
        if (vars.isEmpty()) {
            return "no variables";
        }
        StringBuilder sb = new StringBuilder();
        for (Var v : vars) {
            sb.append(sb.length() == 0 ? "" : ", ").append(v.name).append(" (").append(PrivateText.value(v.shape())).append(' ')
                    .append(v.typeName()).append(')');
        }
        return sb.toString();
    }

    private static Var[] autoPair(Path file, List<Var> vars) throws DataException {
        List<Var[]> pairs = new ArrayList<>();
        List<Var> matrices = new ArrayList<>();
        for (Var f : vars) {
            if (!f.numeric() || f.isVector() || f.rows < 1 || f.cols < 1) {
                continue;
            }
            matrices.add(f);
            for (Var l : vars) {
                if (l != f && l.numeric() && l.isVector() && l.length() > 1
                        && (f.rows == l.length() || f.cols == l.length())) {
                    pairs.add(new Var[] {f, l});
                }
            }
        }
        if (pairs.size() == 1) {
            return pairs.get(0);
        }
        if (pairs.size() > 1) {
            // prefer the unique pair whose label vector holds integers (class labels)
            List<Var[]> integral = new ArrayList<>();
            for (Var[] p : pairs) {
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
            List<Var[]> cands = integral.isEmpty() ? pairs : integral;
            Var[] best = null;
            long second = 0;
            for (Var[] p : cands) {
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
            Var bestFeatures = best == null ? null : best[0];
            long withBest = cands.stream().filter(p -> p[0] == bestFeatures).count();
            if (best != null && withBest == 1 && (long) best[0].rows * best[0].cols >= 4 * second) {
                return best;
            }
            throw new DataException(file, null, "cannot tell features from labels among " + listing(vars)
                    + "; name them with --features-var and --labels-var (--source-features-var/--target-features-var "
                    + "when one file holds both domains)");
        }
        if (matrices.size() == 1) {
            return new Var[] {matrices.get(0), null};
        }
        throw new DataException(file, null, (matrices.isEmpty() ? "no numeric n x d matrix" : "several candidate feature matrices")
                + " among " + listing(vars) + "; name them with --features-var and --labels-var");
    }

    private static Var autoFeatures(Path file, List<Var> vars, Var labels) throws DataException {
        List<Var> cands = new ArrayList<>();
        for (Var f : vars) {
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

    private static Var autoLabels(List<Var> vars, Var features) {
        Var found = null;
        for (Var l : vars) {
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
                    data[i + j * n] = value(m, i, j);
                }
            }
        } else {
            for (int j = 0; j < c; j++) {
                for (int i = 0; i < r; i++) {
                    data[j + i * n] = value(m, i, j);
                }
            }
        }
        return x;
    }

    /** Element (i, j) as a double; unsigned integer types are read as unsigned. */
    private static double value(Matrix m, int i, int j) {
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

    private static Labels toLabels(Path file, Var l) throws DataException {
        Matrix m = (Matrix) l.array;
        int n = l.length();
        double[] v = new double[n];
        boolean col = m.getNumCols() == 1;
        for (int i = 0; i < n; i++) {
            v[i] = col ? value(m, i, 0) : value(m, 0, i);
            if (!Double.isFinite(v[i])) {
                throw new DataException(file, "variable '" + l.name + "', element " + PrivateText.row(i + 1),
                        "label " + PrivateText.value(v[i]) + " is not a finite number");
            }
        }
        return l.integral() ? ClassLabels.fromValues(v) : new RealTargets(v, l.name);
    }

    /** One variable of the file. */
    private static final class Var {
        final String name;
        final Array array;
        final int rows;
        final int cols;

        Var(String name, Array array) {
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
    }
}
