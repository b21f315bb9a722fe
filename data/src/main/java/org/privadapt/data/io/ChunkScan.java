package org.privadapt.data.io;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.PrivateText;
import org.privadapt.data.Provenance;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

/**
 * The state of one {@link RowChunks#scan}: every row checked as the whole-file loader checks it, the first problem of
 * each kind (reported in the loader's order by {@link #finish}), the block being filled and handed out.
 */
final class ChunkScan {
    private final Path file;
    private final String domain;
    private final TextTable.Format format;
    private final boolean dropMissing;
    private final List<String> columns;
    private final int labelCol;
    private final int[] featureCols;
    private final List<String> featureNames;
    final int chunkRows;
    final Preprocessing pre;
    final RowChunks.Consumer consumer;
    final int d;
    final double[] buf;
    final String[] labels;
    int filled;
    long kept;
    long lineRows; // rows after the header with the right field count, kept or not
    DataException parse;
    DataException fieldCount;
    DataException missing;
    // column types, per feature column: whether a number was seen, the first value that is not one
    final boolean[] hasNumber;
    final String[] firstOther;
    final long[] firstOtherLine;
    boolean anyOther;
    DataException label;
    boolean labelAllNumeric = true;
    boolean labelIntegral = true;
    final TreeSet<Double> numericClasses = new TreeSet<>();
    final TreeSet<String> stringClasses = new TreeSet<>();
    // after the preprocessing: the first non-finite value in column-major order, as Dataset.requireFinite finds it
    long badRow = -1;
    int badCol = Integer.MAX_VALUE;
    double badValue;
    boolean badBeforePreprocessing;

    ChunkScan(RowChunks rows, int chunkRows, Preprocessing pre, RowChunks.Consumer consumer) {
        this.file = rows.file();
        this.domain = rows.domain();
        this.format = rows.format();
        this.dropMissing = rows.dropMissing();
        this.columns = rows.columns();
        this.labelCol = rows.labelColumn();
        this.featureCols = rows.featureColumns();
        this.featureNames = rows.featureNames();
        this.d = featureCols.length;
        this.chunkRows = chunkRows;
        this.pre = pre;
        this.consumer = consumer;
        this.buf = new double[chunkRows * d];
        this.labels = labelCol >= 0 ? new String[chunkRows] : null;
        this.hasNumber = new boolean[d];
        this.firstOther = new String[d];
        this.firstOtherLine = new long[d];
    }

    boolean failed() {
        return parse != null || fieldCount != null || missing != null || label != null || badRow >= 0 || anyOther;
    }

    void parseError(DataException e) {
        if (parse == null) {
            parse = e;
        }
    }

    void row(RecordFields f, long line) {
        int size = f.size();
        if (size != columns.size()) {
            if (fieldCount == null) {
                fieldCount = new DataException(file, "line " + PrivateText.row(line), "expected " + columns.size() + " fields"
                        + (format.header() ? " (as in the header)" : "") + ", found " + PrivateText.count(size));
            }
            return;
        }
        lineRows++;
        int missingAt = -1;
        for (int j : featureCols) {
            if (f.missing(j)) {
                missingAt = j;
                break;
            }
        }
        if (missingAt < 0 && labelCol >= 0 && f.missing(labelCol)) {
            missingAt = labelCol;
        }
        if (missingAt >= 0) {
            if (!dropMissing && missing == null) {
                missing = new DataException(file, pos(line, missingAt), "missing value " + PrivateText.quoted(f.text(missingAt))
                        + "; drop such rows with --missing drop");
            }
            return;
        }
        int at = filled * d;
        for (int c = 0; c < d; c++) {
            double v = f.number(featureCols[c]);
            if (Double.isNaN(v)) {
                if (firstOther[c] == null) {
                    firstOther[c] = f.text(featureCols[c]);
                    firstOtherLine[c] = line;
                    anyOther = true;
                }
            } else {
                hasNumber[c] = true;
            }
            buf[at + c] = v;
        }
        if (labelCol >= 0) {
            String s = f.text(labelCol);
            double v = RowChunks.parseNumber(s);
            if (!Double.isNaN(v)) {
                labelIntegral &= v == Math.rint(v);
                if (stringClasses.size() + numericClasses.size() <= 100_000) {
                    numericClasses.add(v);
                }
            } else {
                labelAllNumeric = false;
                if (label == null && TableEncoder.isNonFinite(s)) {
                    label = new DataException(file, pos(line, labelCol), "label " + PrivateText.quoted(s) + " is not a finite number");
                }
            }
            if (stringClasses.size() <= 100_000) {
                stringClasses.add(s);
            }
            labels[filled] = s;
        }
        filled++;
        kept++;
        if (filled == chunkRows) {
            flush();
        }
    }

    void flush() {
        if (filled == 0) {
            return;
        }
        int m = filled;
        long first = kept - m;
        filled = 0;
        if (failed()) {
            return; // nothing more is handed out after a problem; the scan goes on to report the loader's first one
        }
        double[] col = new double[m * d];
        for (int a0 = 0; a0 < m; a0 += 64) { // in tiles of 64 rows: the writes run along a column
            int a1 = Math.min(m, a0 + 64);
            for (int c = 0; c < d; c++) {
                int to = c * m;
                for (int a = a0; a < a1; a++) {
                    col[a + to] = buf[a * d + c];
                }
            }
        }
        DenseMatrix x = new DenseMatrix(m, d, col);
        Dataset chunk = new Dataset(domain, x, null, featureNames, new Provenance(List.of(
                new Provenance.SourceFile(file.toString(), "", "text", "rows " + (first + 1) + ".." + (first + m))), List.of()));
        FeatureMatrix out = pre.fitAndApply(chunk).features();
        DenseMatrix dense = out instanceof DenseMatrix dm ? dm : out.toDense();
        int[] bad = dense.firstNonFinite();
        if (bad != null) {
            badRow = first + bad[0];
            badCol = bad[1];
            badValue = dense.get(bad[0], bad[1]);
            return;
        }
        consumer.accept(new RowChunks.Chunk(dense, labels == null ? null : java.util.Arrays.copyOf(labels, m), first));
    }

    void finish() throws DataException {
        if (parse != null) {
            throw parse;
        }
        if (fieldCount != null) {
            throw fieldCount;
        }
        if (missing != null) {
            throw missing;
        }
        for (int c = 0; c < d; c++) {
            if (firstOther[c] != null) {
                String s = firstOther[c];
                String where = pos(firstOtherLine[c], featureCols[c]);
                String colName = columns.get(featureCols[c]);
                if (hasNumber[c]) {
                    throw new DataException(file, where, PrivateText.quoted(s) + " is not " + (TableEncoder.isNonFinite(s) ? "a finite number" : "a number")
                            + " (column '" + colName + "' holds numbers elsewhere)");
                }
                throw new DataException(file, where, "column '" + colName + "' is categorical (" + PrivateText.quoted(s)
                        + "); encode it with --categorical one-hot or drop it with --drop-columns");
            }
        }
        if (label != null) {
            throw label;
        }
        if (kept == 0) {
            throw new DataException(file.toString(), null, "domain '" + domain + "' has no examples");
        }
        if (d == 0) {
            throw new DataException(file.toString(), null, "domain '" + domain + "' has no features");
        }
        if (badRow >= 0) {
            throw new DataException(file.toString(), "row " + PrivateText.row(badRow + 1) + ", column " + (badCol + 1),
                    "value " + PrivateText.value(badValue) + " is not a finite number");
        }
    }

    List<String> classNames() {
        if (labelCol < 0 || (labelAllNumeric && !labelIntegral) || stringClasses.size() > 100_000) {
            return null;
        }
        if (labelAllNumeric) {
            List<String> names = new ArrayList<>();
            for (double v : numericClasses) {
                names.add(ClassLabels.fromValues(new double[] {v}).names().get(0));
            }
            return names;
        }
        return new ArrayList<>(stringClasses);
    }

    private String pos(long line, int j) {
        return "line " + PrivateText.row(line) + ", field " + (j + 1) + " ('" + columns.get(j) + "')";
    }
}
