package org.privadapt.data.io;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.Labels;
import org.privadapt.data.PrivateText;
import org.privadapt.data.Provenance;
import org.privadapt.data.RealTargets;
import org.privadapt.math.DenseMatrix;

/**
 * Turns text tables into datasets with one shared schema: numeric columns as they are, categorical columns
 * one-hot encoded (levels sorted, named {@code column=level}) or rejected, missing values an error or a
 * dropped row, and the label column coded as classes or real targets.
 *
 * <p>The schema (column types, one-hot levels, class names) is fitted on the union of the tables passed in one
 * call, so that domains read together share their coding. That union is exactly the data read by one call:
 * a party encoding only its own file reads only its own file.
 */
public final class TableEncoder {
    private TableEncoder() {
    }

    public enum Categorical { REJECT, ONE_HOT }

    public enum Missing { ERROR, DROP_ROW }

    public enum LabelKind { AUTO, CLASS, REAL }

    /**
     * @param labelColumn   name or 1-based number of the label column, or null for unlabelled data
     * @param labelKind     how to read labels
     * @param categorical   what to do with non-numeric feature columns
     * @param missing       what to do with a missing value
     * @param missingTokens field values meaning "missing" (compared after trimming)
     * @param dropColumns   columns ignored entirely (names or 1-based numbers)
     * @param labelSuffix   a suffix removed from labels (UCI adult.test writes ">50K.")
     */
    public record Options(String labelColumn, LabelKind labelKind, Categorical categorical, Missing missing,
                          Set<String> missingTokens, List<String> dropColumns, String labelSuffix) {
        public Options {
            missingTokens = Set.copyOf(missingTokens);
            dropColumns = List.copyOf(dropColumns);
        }

        public static Options labelled(String labelColumn) {
            return new Options(labelColumn, LabelKind.AUTO, Categorical.REJECT, Missing.ERROR, Set.of("", "?", "NA"),
                    List.of(), null);
        }

        public Options withCategorical(Categorical c) {
            return new Options(labelColumn, labelKind, c, missing, missingTokens, dropColumns, labelSuffix);
        }

        public Options withMissing(Missing m) {
            return new Options(labelColumn, labelKind, categorical, m, missingTokens, dropColumns, labelSuffix);
        }

        public Options withDrop(List<String> cols) {
            return new Options(labelColumn, labelKind, categorical, missing, missingTokens, cols, labelSuffix);
        }

        public Options withLabelKind(LabelKind k) {
            return new Options(labelColumn, k, categorical, missing, missingTokens, dropColumns, labelSuffix);
        }

        public Options withLabelSuffix(String s) {
            return new Options(labelColumn, labelKind, categorical, missing, missingTokens, dropColumns, s);
        }
    }

    /** Encodes one table as one domain. */
    public static Dataset encode(TextTable table, String domain, Options o, String format) throws DataException {
        return encode(List.of(table), List.of(domain), o, format).get(0);
    }

    /** Encodes several tables (domains) with one schema fitted on their union. */
    public static List<Dataset> encode(List<TextTable> tables, List<String> domains, Options o, String format)
            throws DataException {
        if (tables.isEmpty()) {
            return List.of();
        }
        TextTable first = tables.get(0);
        List<String> cols = first.columns();
        int labelCol = o.labelColumn() == null ? -1 : first.columnIndex(o.labelColumn());
        Set<Integer> dropped = new HashSet<>();
        for (String d : o.dropColumns()) {
            dropped.add(first.columnIndex(d));
        }
        List<Integer> featureCols = new ArrayList<>();
        for (int j = 0; j < cols.size(); j++) {
            if (j != labelCol && !dropped.contains(j)) {
                featureCols.add(j);
            }
        }
        // 1. rows kept after the missing-value policy
        List<int[]> kept = new ArrayList<>();
        for (TextTable t : tables) {
            if (!t.columns().equals(cols)) {
                throw new DataException(t.file(), null, "columns " + t.columns() + " differ from " + cols + " in " + first.file());
            }
            List<Integer> k = new ArrayList<>();
            for (int r = 0; r < t.size(); r++) {
                String[] row = t.row(r);
                int missingAt = -1;
                for (int j : featureCols) {
                    if (o.missingTokens().contains(row[j])) {
                        missingAt = j;
                        break;
                    }
                }
                if (missingAt < 0 && labelCol >= 0 && o.missingTokens().contains(row[labelCol])) {
                    missingAt = labelCol;
                }
                if (missingAt >= 0) {
                    if (o.missing() == Missing.ERROR) {
                        throw new DataException(t.fileOf(r), pos(t, r, missingAt, cols), "missing value " + PrivateText.quoted(row[missingAt])
                                + "; drop such rows with --missing drop");
                    }
                    continue;
                }
                k.add(r);
            }
            kept.add(k.stream().mapToInt(Integer::intValue).toArray());
        }
        // 2. column types over the union
        int m = featureCols.size();
        boolean[] categorical = new boolean[m];
        List<List<String>> levels = new ArrayList<>();
        for (int c = 0; c < m; c++) {
            int j = featureCols.get(c);
            int numbers = 0;
            int others = 0;
            int[] firstOther = null;
            int[] firstNumber = null;
            TreeSet<String> lv = new TreeSet<>();
            for (int ti = 0; ti < tables.size(); ti++) {
                TextTable t = tables.get(ti);
                for (int r : kept.get(ti)) {
                    String s = t.row(r)[j];
                    if (isNumber(s)) {
                        numbers++;
                        if (firstNumber == null) {
                            firstNumber = new int[] {ti, r};
                        }
                    } else {
                        others++;
                        lv.add(s);
                        if (firstOther == null) {
                            firstOther = new int[] {ti, r};
                        }
                    }
                }
            }
            if (others > 0 && numbers > 0) {
                TextTable t = tables.get(firstOther[0]);
                String s = t.row(firstOther[1])[j];
                throw new DataException(t.fileOf(firstOther[1]), pos(t, firstOther[1], j, cols),
                        PrivateText.quoted(s) + " is not " + (isNonFinite(s) ? "a finite number" : "a number")
                        + " (column '" + cols.get(j) + "' holds numbers elsewhere)");
            }
            if (others > 0) {
                if (o.categorical() == Categorical.REJECT) {
                    TextTable t = tables.get(firstOther[0]);
                    throw new DataException(t.fileOf(firstOther[1]), pos(t, firstOther[1], j, cols),
                            "column '" + cols.get(j) + "' is categorical (" + PrivateText.quoted(t.row(firstOther[1])[j])
                            + "); encode it with --categorical one-hot or drop it with --drop-columns");
                }
                categorical[c] = true;
            }
            levels.add(new ArrayList<>(lv));
        }
        // 3. labels over the union
        List<String> classNames = null;
        LabelKind kind = o.labelKind();
        if (labelCol >= 0) {
            boolean allNumeric = true;
            boolean integral = true;
            for (int ti = 0; ti < tables.size(); ti++) {
                TextTable t = tables.get(ti);
                for (int r : kept.get(ti)) {
                    String s = labelText(t.row(r)[labelCol], o);
                    if (isNumber(s)) {
                        double v = Double.parseDouble(s);
                        integral &= v == Math.rint(v);
                    } else {
                        allNumeric = false;
                        if (kind == LabelKind.REAL || isNonFinite(s)) {
                            throw new DataException(t.fileOf(r), pos(t, r, labelCol, cols), "label " + PrivateText.quoted(s) + " is not "
                                    + (isNonFinite(s) ? "a finite number" : "a number"));
                        }
                    }
                }
            }
            if (kind == LabelKind.AUTO) {
                kind = allNumeric && !integral ? LabelKind.REAL : LabelKind.CLASS;
            }
            if (kind == LabelKind.CLASS) {
                if (allNumeric) {
                    TreeSet<Double> vals = new TreeSet<>();
                    for (int ti = 0; ti < tables.size(); ti++) {
                        for (int r : kept.get(ti)) {
                            vals.add(Double.parseDouble(labelText(tables.get(ti).row(r)[labelCol], o)));
                        }
                    }
                    classNames = new ArrayList<>();
                    for (double v : vals) {
                        classNames.add(ClassLabels.fromValues(new double[] {v}).names().get(0));
                    }
                } else {
                    TreeSet<String> vals = new TreeSet<>();
                    for (int ti = 0; ti < tables.size(); ti++) {
                        for (int r : kept.get(ti)) {
                            vals.add(labelText(tables.get(ti).row(r)[labelCol], o));
                        }
                    }
                    classNames = new ArrayList<>(vals);
                }
            }
        }
        // 4. feature names
        List<String> names = new ArrayList<>();
        int width = 0;
        int[] offset = new int[m];
        for (int c = 0; c < m; c++) {
            offset[c] = width;
            String cn = cols.get(featureCols.get(c));
            if (categorical[c]) {
                for (String l : levels.get(c)) {
                    names.add(cn + "=" + l);
                }
                width += levels.get(c).size();
            } else {
                names.add(cn);
                width += 1;
            }
        }
        int nCategorical = 0;
        for (boolean b : categorical) {
            nCategorical += b ? 1 : 0;
        }
        // 5. encode each table
        List<Dataset> out = new ArrayList<>();
        for (int ti = 0; ti < tables.size(); ti++) {
            TextTable t = tables.get(ti);
            int[] rows = kept.get(ti);
            DenseMatrix x = DenseMatrix.zeros(rows.length, width);
            double[] data = x.data();
            for (int a = 0; a < rows.length; a++) {
                String[] row = t.row(rows[a]);
                for (int c = 0; c < m; c++) {
                    String s = row[featureCols.get(c)];
                    if (categorical[c]) {
                        int lv = java.util.Collections.binarySearch(levels.get(c), s);
                        data[a + (offset[c] + lv) * rows.length] = 1.0;
                    } else {
                        data[a + offset[c] * rows.length] = DecimalParser.parse(s); // a number (checked above): parseDouble's value
                    }
                }
            }
            Labels y = null;
            if (labelCol >= 0) {
                if (kind == LabelKind.REAL) {
                    double[] v = new double[rows.length];
                    for (int a = 0; a < rows.length; a++) {
                        v[a] = Double.parseDouble(labelText(t.row(rows[a])[labelCol], o));
                    }
                    y = new RealTargets(v, cols.get(labelCol));
                } else {
                    int[] codes = new int[rows.length];
                    for (int a = 0; a < rows.length; a++) {
                        String s = labelText(t.row(rows[a])[labelCol], o);
                        String key = isNumber(s) ? ClassLabels.fromValues(new double[] {Double.parseDouble(s)}).names().get(0) : s;
                        codes[a] = classNames.indexOf(key);
                    }
                    y = new ClassLabels(codes, classNames);
                }
            }
            List<Provenance.SourceFile> files = new ArrayList<>();
            for (int f = 0; f < t.files().size(); f++) {
                files.add(new Provenance.SourceFile(t.files().get(f).toString(), t.hashes().get(f), format,
                        (labelCol >= 0 ? "label column '" + cols.get(labelCol) + "'" : "no labels") + ", "
                        + m + " columns" + (nCategorical > 0 ? " (" + nCategorical + " one-hot encoded)" : "")
                        + (o.dropColumns().isEmpty() ? "" : ", dropped " + o.dropColumns())));
            }
            Provenance prov = new Provenance(files, rows.length < t.size()
                    ? List.of("rows with missing values dropped (" + (t.size() - rows.length) + " of " + t.size() + ")")
                    : List.of());
            Dataset ds = new Dataset(domains.get(ti), x, y, names, prov);
            // one-hot levels are read from the rows (PublicFacts): d and the feature names depend on them
            out.add(nCategorical > 0 ? ds.withSchemaFromRows() : ds);
        }
        return out;
    }

    private static String labelText(String s, Options o) {
        if (o.labelSuffix() != null && s.endsWith(o.labelSuffix())) {
            return s.substring(0, s.length() - o.labelSuffix().length());
        }
        return s;
    }

    private static String pos(TextTable t, int r, int j, List<String> cols) {
        return "line " + PrivateText.row(t.line(r)) + ", field " + (j + 1) + " ('" + cols.get(j) + "')";
    }

    /**
     * A finite decimal number (Java syntax, no hex, no NaN/Infinity): {@link DecimalParser#parse} (what
     * {@code Double.parseDouble} reads, finite, of text that starts with a digit, a sign or a point and ends in no
     * {@code d}/{@code f} suffix; hex refused) gives a number for it.
     */
    static boolean isNumber(String s) {
        return !Double.isNaN(DecimalParser.parse(s));
    }

    static boolean isNonFinite(String s) {
        String t = s.toLowerCase(java.util.Locale.ROOT).replace("+", "").replace("-", "");
        if (t.equals("nan") || t.equals("inf") || t.equals("infinity")) {
            return true;
        }
        // overflowing literals such as 1e400 parse to infinity
        try {
            return (Character.isDigit(t.isEmpty() ? 'x' : t.charAt(0)) || t.startsWith(".")) && !Double.isFinite(Double.parseDouble(s));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Reads a delimited file and encodes it in one step. */
    public static Dataset load(Path file, String domain, TextTable.Format format, Options o) throws DataException {
        return encode(TextTable.read(file, format), domain, o, format.separator().name().toLowerCase(java.util.Locale.ROOT) + " text");
    }
}
