package org.privadapt.data.io;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.PrivateText;
import org.privadapt.data.Provenance;
import org.privadapt.data.text.TextEncoding;
import org.privadapt.math.FeatureColumns;
import org.privadapt.math.FeatureMatrix;

/**
 * A CSV or TSV file with one column of free text (issue 47, {@code --text-column}): the other feature columns are read
 * as {@link DataFiles#load} reads them (numbers; categorical columns one-hot with {@code --categorical one-hot}), and the
 * text column becomes the features of a {@link TextEncoding}, placed after them: the hashed bag of words (4,096
 * buckets, the default) or a frozen pretrained encoder (cached per text set by content hash, a progress display on
 * long encodings). Either is a row-local public map: each row's features depend on its own text only and nothing is
 * fitted on the rows (no vocabulary, no document frequencies), so the text part of the layout is public by
 * construction; the dataset's provenance names the encoder ({@link TextEncoding#identity(Dataset)}), which a release
 * records.
 *
 * <p>Cells: an empty field is a valid, empty text (no words: a zero row in the bag of words); {@code NA} and {@code ?}
 * mark a missing text, an error naming the file, line and field unless {@code --missing drop} drops its row (with the
 * rows missing any other value, as without a text column). A column that holds numbers only is refused as no text
 * column; so are the label column and a dropped column named as the text column.
 */
public final class TextColumnTable {
    /** Field values meaning "no text" (the empty field is an empty text, not a missing one). */
    public static final Set<String> MISSING_TEXT = Set.of("NA", "?");
    /** What the other columns count as missing ({@link TableEncoder.Options#labelled}). */
    private static final Set<String> MISSING = Set.of("", "?", "NA");

    private TextColumnTable() {
    }

    /**
     * Reads the file with {@code textColumn} (a name or a 1-based number) encoded by {@code encoding}.
     *
     * @throws DataException one line naming the file and position: not a CSV/TSV file, no such column, the label or a
     *                       dropped column, a column of numbers only, a missing text, or what {@link DataFiles#load}
     *                       refuses in the other columns
     */
    public static Dataset load(Path file, String domain, DataFiles.Options o, String textColumn, TextEncoding encoding)
            throws DataException {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!(name.endsWith(".csv") || name.endsWith(".tsv") || name.endsWith(".tab"))) {
            Files2.requireReadable(file);
            throw new DataException(file, null, "--text-column reads a text column of a CSV or TSV file (.csv, .tsv, .tab); "
                    + "this file's fields are not delimited text");
        }
        TextTable.Format format = TextTable.Format.forFileName(name);
        if (o.header() != null) {
            format = format.withHeader(o.header());
        }
        TextTable table = TextTable.read(file, format);
        List<String> cols = table.columns();
        String header = format.header() ? "line 1 (header)" : null;
        int t = TextTable.find(cols, textColumn);
        if (t < 0) {
            String hint = LabelColumns.didYouMean(textColumn, cols);
            throw new DataException(file, header, "no column '" + textColumn + "' for --text-column"
                    + (hint.isEmpty() ? "" : " (did you mean '" + hint + "'?)") + "; the " + cols.size() + " columns are "
                    + LabelColumns.list(cols));
        }
        String label = LabelColumns.resolve(file, cols, format.header(), o);
        int labelCol = "none".equalsIgnoreCase(label) ? -1 : TextTable.find(cols, label);
        if (labelCol == t) {
            throw new DataException(file, header, "column '" + cols.get(t) + "' is the label column; --text-column names a "
                    + "column of texts to encode as features");
        }
        List<Integer> dropped = new ArrayList<>();
        for (String d : o.dropColumns()) {
            int j = table.columnIndex(d);
            if (j == t) {
                throw new DataException(file, header, "column '" + cols.get(t) + "' is both --text-column and in --drop-columns");
            }
            dropped.add(j);
        }
        TextTable kept = keepComplete(table, t, dropped, o.dropMissing());
        requireText(kept, t);
        List<String> drop = new ArrayList<>(o.dropColumns());
        drop.add(cols.get(t));
        TableEncoder.Options to = TableEncoder.Options.labelled(labelCol < 0 ? null : label)
                .withCategorical(o.categorical() ? TableEncoder.Categorical.ONE_HOT : TableEncoder.Categorical.REJECT)
                .withMissing(TableEncoder.Missing.ERROR)
                .withDrop(drop);
        String fmt = format.separator().name().toLowerCase(Locale.ROOT) + " text";
        Dataset others = TableEncoder.encode(kept, domain, to, fmt);
        List<String> texts = new ArrayList<>(kept.size());
        for (int r = 0; r < kept.size(); r++) {
            texts.add(kept.row(r)[t]);
        }
        String what = "text column '" + cols.get(t) + "'";
        Dataset text = encoding.transform(texts, domain, null, file, table.hashes().get(0), what,
                what + " of " + file.getFileName());
        FeatureMatrix x = FeatureColumns.beside(others.features(), text.features());
        List<String> names = new ArrayList<>(others.featureNames());
        for (int j = 0; j < text.dimension(); j++) {
            names.add(cols.get(t) + "[" + j + "]");
        }
        Provenance.SourceFile f = others.provenance().files().get(0);
        Provenance.SourceFile tf = text.provenance().files().get(0);
        List<String> steps = new ArrayList<>();
        if (kept.size() < table.size()) {
            steps.add("rows with missing values dropped (" + (table.size() - kept.size()) + " of " + table.size() + ")");
        }
        // the other columns' detail, without the text column among the dropped ones
        String detail = f.detail().replace(", dropped " + drop, o.dropColumns().isEmpty() ? "" : ", dropped " + o.dropColumns());
        Provenance prov = new Provenance(List.of(new Provenance.SourceFile(f.path(), f.sha256(), f.format() + ", " + what,
                detail + ", then " + tf.detail())), steps);
        Dataset out = new Dataset(domain, x, others.labels().orElse(null), names, prov);
        // one-hot levels of the other columns are read from the rows; the text part's layout is fixed (the encoder's)
        return others.publicFacts().schemaFromRows() ? out.withSchemaFromRows() : out;
    }

    /** The rows holding every value, or the first missing one refused (unless {@code dropMissing}). */
    private static TextTable keepComplete(TextTable table, int t, List<Integer> dropped, boolean dropMissing)
            throws DataException {
        List<String> cols = table.columns();
        for (int r = 0; r < table.size(); r++) {
            String[] row = table.row(r);
            int at = missingAt(row, t, dropped);
            if (at >= 0 && !dropMissing) {
                String pos = "line " + PrivateText.row(table.line(r)) + ", field " + (at + 1) + " ('" + cols.get(at) + "')";
                throw new DataException(table.fileOf(r), pos, at == t
                        ? "missing text " + PrivateText.quoted(row[at]) + " (NA and ? mark a missing text; an empty field is an "
                        + "empty text); drop such rows with --missing drop"
                        : "missing value " + PrivateText.quoted(row[at]) + "; drop such rows with --missing drop");
            }
        }
        return dropMissing ? table.filter(row -> missingAt(row, t, dropped) < 0) : table;
    }

    private static int missingAt(String[] row, int t, List<Integer> dropped) {
        for (int j = 0; j < row.length; j++) {
            if (j == t ? MISSING_TEXT.contains(row[j]) : !dropped.contains(j) && MISSING.contains(row[j])) {
                return j;
            }
        }
        return -1;
    }

    /** Refuses a column of numbers only (a misnamed column: its values would be hashed as words, or lost). */
    private static void requireText(TextTable table, int t) throws DataException {
        int firstNumber = -1;
        for (int r = 0; r < table.size(); r++) {
            String s = table.row(r)[t];
            if (!TableEncoder.isNumber(s) && !s.isEmpty()) {
                return;
            }
            if (firstNumber < 0 && !s.isEmpty()) {
                firstNumber = r;
            }
        }
        if (firstNumber >= 0) {
            throw new DataException(table.fileOf(firstNumber), "line " + PrivateText.row(table.line(firstNumber)) + ", field "
                    + (t + 1) + " ('" + table.columns().get(t) + "')", "column '" + table.columns().get(t) + "' holds numbers "
                    + "only (" + PrivateText.quoted(table.row(firstNumber)[t]) + "), not text: --text-column names a column of "
                    + "texts (a numeric column is read as a feature without it)");
        }
    }
}
