package org.privadapt.data.io;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.privadapt.data.DataException;
import org.privadapt.data.PrivateText;

/**
 * A text table as read from a file, before any typing: column names and string fields, each row remembering its
 * line number so later errors can point at it. Delimited files (comma, tab, semicolon) are parsed with FastCSV
 * (RFC 4180 quoting, CRLF); whitespace-separated and Fortran-style fixed-width layouts are split here. Every
 * row must have as many fields as the header.
 */
public final class TextTable {
    private final List<Path> files;
    private final List<String> hashes;
    private final List<String> columns;
    private final List<String[]> rows;
    private final List<Integer> lines;
    private final List<Integer> fileOfRow;

    private TextTable(List<Path> files, List<String> hashes, List<String> columns, List<String[]> rows,
                      List<Integer> lines, List<Integer> fileOfRow) {
        this.files = List.copyOf(files);
        this.hashes = List.copyOf(hashes);
        this.columns = List.copyOf(columns);
        this.rows = rows;
        this.lines = lines;
        this.fileOfRow = fileOfRow;
    }

    /** How fields are separated. */
    public enum Separator { COMMA, TAB, SEMICOLON, WHITESPACE, FIXED_WIDTH }

    /**
     * Layout of a table file.
     *
     * @param separator   how fields are separated
     * @param widths      field widths for {@link Separator#FIXED_WIDTH} (ignored otherwise)
     * @param header      whether the first (non-skipped) line holds column names
     * @param names       column names when there is no header (null: {@code c1, c2, ...})
     * @param skipPrefix  lines starting with this are skipped (null: none), e.g. "|" in UCI's adult.test
     */
    public record Format(Separator separator, int[] widths, boolean header, List<String> names, String skipPrefix) {
        public static Format csv() {
            return new Format(Separator.COMMA, null, true, null, null);
        }

        public static Format tsv() {
            return new Format(Separator.TAB, null, true, null, null);
        }

        public static Format whitespace(boolean header) {
            return new Format(Separator.WHITESPACE, null, header, null, null);
        }

        public Format withHeader(boolean h) {
            return new Format(separator, widths, h, names, skipPrefix);
        }

        public Format withNames(List<String> n) {
            return new Format(separator, widths, false, n, skipPrefix);
        }

        public Format withSkipPrefix(String p) {
            return new Format(separator, widths, header, names, p);
        }

        /** The usual layout for a file name: .tsv tab, .csv comma, anything else whitespace; header assumed. */
        public static Format forFileName(String name) {
            String n = name.toLowerCase(Locale.ROOT);
            if (n.endsWith(".tsv") || n.endsWith(".tab")) {
                return tsv();
            }
            if (n.endsWith(".csv")) {
                return csv();
            }
            return whitespace(true);
        }
    }

    public static TextTable read(Path file, Format format) throws DataException {
        byte[] bytes = Files2.readAll(file);
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
            text = text.substring(1);
        }
        List<String[]> raw = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        switch (format.separator()) {
            case COMMA:
            case TAB:
            case SEMICOLON:
                readDelimited(file, text, format, raw, lines);
                break;
            case WHITESPACE:
            case FIXED_WIDTH:
                readLines(file, text, format, raw, lines);
                break;
            default:
                throw new IllegalStateException();
        }
        List<String> columns;
        int first = 0;
        if (format.header()) {
            if (raw.isEmpty()) {
                throw new DataException(file, "line 1", "file is empty: no header line");
            }
            columns = new ArrayList<>();
            for (String s : raw.get(0)) {
                columns.add(s.trim());
            }
            first = 1;
        } else if (format.names() != null) {
            columns = format.names();
        } else {
            int c = raw.isEmpty() ? 0 : raw.get(0).length;
            columns = new ArrayList<>();
            for (int j = 1; j <= c; j++) {
                columns.add("c" + j);
            }
        }
        List<String[]> rows = new ArrayList<>(Math.max(0, raw.size() - first));
        List<Integer> rowLines = new ArrayList<>();
        for (int r = first; r < raw.size(); r++) {
            String[] f = raw.get(r);
            if (f.length != columns.size()) {
                throw new DataException(file, "line " + PrivateText.row(lines.get(r)), "expected " + columns.size() + " fields"
                        + (format.header() ? " (as in the header)" : "") + ", found " + PrivateText.count(f.length));
            }
            rows.add(f);
            rowLines.add(lines.get(r));
        }
        List<Integer> fileIdx = new ArrayList<>(java.util.Collections.nCopies(rows.size(), 0));
        return new TextTable(List.of(file), List.of(Files2.sha256(bytes)), columns, rows, rowLines, fileIdx);
    }

    private static void readDelimited(Path file, String text, Format format, List<String[]> raw, List<Integer> lines)
            throws DataException {
        char sep = switch (format.separator()) {
            case TAB -> '\t';
            case SEMICOLON -> ';';
            default -> ',';
        };
        try (CsvReader<CsvRecord> reader = CsvReader.builder().fieldSeparator(sep).quoteCharacter('"')
                .skipEmptyLines(true).ignoreDifferentFieldCount(true).ofCsvRecord(text)) {
            for (CsvRecord rec : reader) {
                List<String> f = rec.getFields();
                if (format.skipPrefix() != null && !f.isEmpty() && f.get(0).startsWith(format.skipPrefix())) {
                    continue;
                }
                if (f.size() == 1 && f.get(0).isBlank()) {
                    continue;
                }
                String[] arr = new String[f.size()];
                for (int j = 0; j < arr.length; j++) {
                    arr[j] = f.get(j).trim();
                }
                raw.add(arr);
                lines.add((int) rec.getStartingLineNumber());
            }
        } catch (java.io.IOException | RuntimeException e) {
            throw new DataException(file, null, "malformed delimited text: " + PrivateText.foreign(e.getMessage()), e);
        }
    }

    private static void readLines(Path file, String text, Format format, List<String[]> raw, List<Integer> lines)
            throws DataException {
        String[] all = text.split("\r?\n", -1);
        for (int i = 0; i < all.length; i++) {
            String line = all[i];
            if (line.isBlank() || (format.skipPrefix() != null && line.startsWith(format.skipPrefix()))) {
                continue;
            }
            String[] f;
            if (format.separator() == Separator.WHITESPACE) {
                f = line.trim().split("\\s+");
            } else {
                int[] w = format.widths();
                f = new String[w.length];
                int pos = 0;
                for (int k = 0; k < w.length; k++) {
                    if (pos >= line.length()) {
                        throw new DataException(file, "line " + PrivateText.row(i + 1) + ", column " + (pos + 1),
                                "line ends before fixed-width field " + (k + 1) + " of " + w.length);
                    }
                    int end = Math.min(line.length(), pos + w[k]);
                    f[k] = line.substring(pos, end).trim();
                    pos += w[k];
                }
                if (pos < line.trim().length()) {
                    throw new DataException(file, "line " + PrivateText.row(i + 1) + ", column " + (pos + 1),
                            "unexpected text after the last fixed-width field");
                }
            }
            raw.add(f);
            lines.add(i + 1);
        }
    }

    /** The files this table was read from (more than one after {@link #concat}). */
    public List<Path> files() {
        return files;
    }

    /** SHA-256 of each file, in the order of {@link #files()}. */
    public List<String> hashes() {
        return hashes;
    }

    /** The first file (used in messages that concern the whole table). */
    public Path file() {
        return files.get(0);
    }

    /** The file row r came from. */
    public Path fileOf(int r) {
        return files.get(fileOfRow.get(r));
    }

    public List<String> columns() {
        return columns;
    }

    public int size() {
        return rows.size();
    }

    public String[] row(int r) {
        return rows.get(r);
    }

    public int line(int r) {
        return lines.get(r);
    }

    /**
     * Index of a column by name (exact, then case-insensitive), or by 1-based number.
     *
     * @throws DataException listing the columns when there is no such column
     */
    public int columnIndex(String nameOrNumber) throws DataException {
        return columnIndex(file(), columns, nameOrNumber);
    }

    /** {@link #columnIndex(String)} on a header alone (the streaming reader's). */
    static int columnIndex(Path file, List<String> columns, String nameOrNumber) throws DataException {
        int j = find(columns, nameOrNumber);
        if (j < 0) {
            String hint = LabelColumns.didYouMean(nameOrNumber, columns);
            throw new DataException(file, null, "no column '" + nameOrNumber + "'" + (hint.isEmpty() ? "" : " (did you mean '"
                    + hint + "'?)") + "; columns are " + LabelColumns.list(columns));
        }
        return j;
    }

    /** {@link #columnIndex(String)} on a header alone, or -1 when there is no such column. */
    static int find(List<String> columns, String nameOrNumber) {
        int exact = columns.indexOf(nameOrNumber);
        if (exact >= 0) {
            return exact;
        }
        for (int j = 0; j < columns.size(); j++) {
            if (columns.get(j).equalsIgnoreCase(nameOrNumber)) {
                return j;
            }
        }
        if (nameOrNumber.equals("last") && !columns.isEmpty()) {
            return columns.size() - 1;
        }
        try {
            int k = Integer.parseInt(nameOrNumber.trim());
            if (k >= 1 && k <= columns.size()) {
                return k - 1;
            }
        } catch (NumberFormatException ignored) {
            // not a number
        }
        return -1;
    }

    /** The rows satisfying {@code keep}, with their line numbers. */
    public TextTable filter(Predicate<String[]> keep) {
        List<String[]> r = new ArrayList<>();
        List<Integer> l = new ArrayList<>();
        List<Integer> f = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            if (keep.test(rows.get(i))) {
                r.add(rows.get(i));
                l.add(lines.get(i));
                f.add(fileOfRow.get(i));
            }
        }
        return new TextTable(files, hashes, columns, r, l, f);
    }

    /** Concatenates tables with identical columns (e.g. a train and a test file). */
    public TextTable concat(TextTable other) throws DataException {
        if (!other.columns.equals(columns)) {
            throw new DataException(other.file(), null, "columns " + other.columns + " differ from " + columns + " in " + file());
        }
        List<Path> fs = new ArrayList<>(files);
        fs.addAll(other.files);
        List<String> hs = new ArrayList<>(hashes);
        hs.addAll(other.hashes);
        List<String[]> r = new ArrayList<>(rows);
        r.addAll(other.rows);
        List<Integer> l = new ArrayList<>(lines);
        l.addAll(other.lines);
        List<Integer> f = new ArrayList<>(fileOfRow);
        for (int x : other.fileOfRow) {
            f.add(x + files.size());
        }
        return new TextTable(fs, hs, columns, r, l, f);
    }
}
