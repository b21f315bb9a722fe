package org.privadapt.data.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import org.privadapt.data.DataException;
import org.privadapt.data.PrivateText;

/**
 * The records of a table file one at a time, split as {@link TextTable#read} splits them (FastCSV for delimited
 * files; lines split on white space otherwise; blank lines and lines with the skip prefix skipped), with a digest of
 * the bytes read.
 *
 * <p>Lines are read as bytes, and a line of plain ASCII text is split here, without a string per field: for a
 * delimited file, a line with no quote character and no carriage return but the one before its line feed is what
 * FastCSV makes of it, its fields split at every separator (RFC 4180 quoting is the only thing that changes that);
 * a line with other bytes than ASCII is decoded (UTF-8, as a whole: the line feed and the separators are ASCII, which
 * no UTF-8 sequence, well-formed or not, includes) and split the same way. The first line with a quote character, a
 * lone carriage return, more than FastCSV's 16384 fields or more than a megabyte is left to FastCSV: the file is read
 * again from its start by FastCSV, which hands out the records from that line on (the earlier ones, one per line and
 * numbered as here, were handed out already), so that quoting, line numbers and FastCSV's own errors are as before.
 */
final class RecordReader implements AutoCloseable {
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    /** FastCSV's default limit on the fields of a record (CsvRecordHandler's maxFields). */
    private static final int MAX_FIELDS = 16 * 1024;
    /** A longer line is left to the slower reader. */
    private static final int MAX_LINE = 1 << 20;

    private final Path file;
    private final TextTable.Format format;
    private final java.util.function.Consumer<DataException> onParseError;
    private final MessageDigest md;
    private final boolean delimited;
    private final char sep;
    // the fast reader: bytes
    private InputStream raw;
    private byte[] buf;
    private int pos;
    private int lim;
    private boolean eof;
    private final RecordFields.Bytes fields = new RecordFields.Bytes();
    // the reader it hands over to (or the only one, for a skip prefix): FastCSV or whole lines as text
    private TextRecords text;
    private long line;
    private long lineNo; // the number of lines read
    private boolean done;

    RecordReader(Path file, TextTable.Format format, java.util.function.Consumer<DataException> onParseError) throws DataException {
        this.file = file;
        this.format = format;
        this.onParseError = onParseError;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
        delimited = switch (format.separator()) {
            case COMMA, TAB, SEMICOLON -> true;
            default -> false;
        };
        sep = switch (format.separator()) {
            case TAB -> '\t';
            case SEMICOLON -> ';';
            default -> ',';
        };
        // a skip prefix, or FastCSV's buffer limited by a system property: the text readers alone
        boolean fast = format.skipPrefix() == null && (format.separator() == TextTable.Separator.WHITESPACE
                || (delimited && System.getProperty("fastcsv.max.field.size") == null));
        try {
            if (fast) {
                raw = Files.newInputStream(file);
                buf = new byte[2 * MAX_LINE];
                fields.buf = buf;
                while (lim < 3 && !eof) {
                    fill();
                }
                if (lim >= 3 && buf[0] == (byte) 0xEF && buf[1] == (byte) 0xBB && buf[2] == (byte) 0xBF) {
                    pos = 3; // the byte order mark, U+FEFF
                }
            } else {
                text = new TextRecords(file, format, md, delimited, sep, 0);
            }
        } catch (IOException e) {
            throw new DataException(file, null, "cannot read file: " + e.getMessage(), e);
        }
    }

    /** Reads more bytes after {@code lim} (into the digest too). */
    private void fill() throws IOException {
        int k = raw.read(buf, lim, buf.length - lim);
        if (k < 0) {
            eof = true;
        } else {
            md.update(buf, lim, k);
            lim += k;
        }
    }

    /** The index of the line feed ending the line at {@code pos}, {@code lim} at the end of the file, -1 for a long line. */
    private int lineEnd() throws IOException {
        int i = pos;
        while (true) {
            byte[] b = buf;
            int l = lim;
            for (; i < l; i++) {
                if (b[i] == '\n') {
                    return i;
                }
            }
            if (eof) {
                return lim;
            }
            if (lim - pos >= MAX_LINE) {
                return -1;
            }
            if (pos > 0) {
                System.arraycopy(buf, pos, buf, 0, lim - pos);
                i -= pos;
                lim -= pos;
                pos = 0;
            }
            fill();
        }
    }

    /** The line of the record last returned. */
    long line() {
        return text != null ? text.line() : line;
    }

    /** The next record, or null at the end (or after a parse error, reported to {@code onParseError} or thrown). */
    RecordFields next() throws DataException {
        if (done) {
            return null;
        }
        try {
            if (raw != null) {
                return delimited ? fastDelimited() : fastWhitespace();
            }
            return nextText();
        } catch (IOException | RuntimeException e) {
            done = true;
            DataException de = e instanceof IOException && !(e instanceof java.io.UncheckedIOException)
                    ? new DataException(file, null, "cannot read file: " + e.getMessage(), e)
                    : new DataException(file, null, "malformed delimited text: " + PrivateText.foreign(e.getMessage()), e);
            if (onParseError == null) {
                throw de;
            }
            onParseError.accept(de);
            return null;
        }
    }

    /** Hands over to the text reader, which reads the file again and hands out the records from line {@code from} on. */
    private RecordFields handOver(long from) throws IOException {
        raw.close();
        raw = null;
        buf = null;
        fields.buf = null;
        md.reset();
        text = new TextRecords(file, format, md, delimited, sep, from);
        return nextText();
    }

    private RecordFields nextText() throws IOException {
        RecordFields f = text.next();
        done = f == null;
        return f;
    }

    private RecordFields fastDelimited() throws IOException {
        while (true) {
            int end;
            try {
                end = lineEnd();
            } catch (IOException e) {
                // as FastCSV reports a failed read (an UncheckedIOException, "malformed delimited text: ...")
                throw new java.io.UncheckedIOException(lineNo == 0 ? "Exception when reading first record"
                        : "Exception when reading record that started in line " + (lineNo + 1), e);
            }
            if (end < 0) {
                return handOver(lineNo + 1);
            }
            if (end == pos && end == lim) {
                done = true;
                return null;
            }
            int from = pos;
            int to = end;
            pos = end < lim ? end + 1 : end;
            lineNo++;
            byte[] b = buf;
            if (to > from && b[to - 1] == '\r') {
                to--; // CRLF (or a last line ending in CR): one line end for FastCSV too
            }
            if (to == from) {
                continue; // an empty line
            }
            // one pass: the fields (untrimmed), and whether the line is plain ASCII with no quote and no CR
            RecordFields.Bytes r = fields;
            r.n = 0;
            boolean ascii = true;
            byte s = (byte) sep;
            int a = from;
            for (int i = from; i < to; i++) {
                byte c = b[i];
                if (c == s) {
                    r.add(a, i);
                    a = i + 1;
                } else if (c <= '"') {
                    if (c == '"' || c == '\r') {
                        return handOver(lineNo);
                    }
                    ascii &= c >= 0;
                }
            }
            r.add(a, to);
            if (r.n > MAX_FIELDS) {
                return handOver(lineNo); // FastCSV refuses it
            }
            if (!ascii) {
                String[] f = splitText(new String(b, from, to - from, StandardCharsets.UTF_8));
                if (f.length == 1 && f[0].isBlank()) {
                    continue;
                }
                for (int j = 0; j < f.length; j++) {
                    f[j] = f[j].trim();
                }
                line = lineNo;
                return new RecordFields.Strings(f);
            }
            if (r.n == 1 && blank(b, from, to)) {
                continue;
            }
            r.trim();
            line = lineNo;
            return r;
        }
    }

    /** The fields of a delimited line with no quote character: every separator splits. */
    private String[] splitText(String s) {
        List<String> f = new ArrayList<>();
        int a = 0;
        for (int i = 0; i <= s.length(); i++) {
            if (i == s.length() || s.charAt(i) == sep) {
                f.add(s.substring(a, i));
                a = i + 1;
            }
        }
        return f.toArray(new String[0]);
    }

    /** {@code String.isBlank} of ASCII bytes. */
    private static boolean blank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!Character.isWhitespace(b[i])) {
                return false;
            }
        }
        return true;
    }

    private RecordFields fastWhitespace() throws IOException {
        while (true) {
            int end = lineEnd();
            if (end < 0) {
                return handOver(lineNo + 1);
            }
            if (end == pos && end == lim) {
                done = true;
                return null;
            }
            int from = pos;
            int to = end;
            pos = end < lim ? end + 1 : end;
            lineNo++;
            byte[] b = buf;
            if (to > from && b[to - 1] == '\r') {
                to--; // split("\r?\n")
            }
            boolean plain = true; // ASCII, and no white space but spaces and tabs
            boolean blank = true;
            for (int i = from; i < to; i++) {
                byte c = b[i];
                if (c == ' ' || c == '\t') {
                    continue;
                }
                blank = false;
                if (c < ' ') { // a control character, or (negative) not ASCII
                    plain = false;
                    break;
                }
            }
            if (!plain) {
                String s = new String(b, from, to - from, StandardCharsets.UTF_8);
                if (s.isBlank()) {
                    continue;
                }
                line = lineNo;
                return new RecordFields.Strings(WHITESPACE.split(s.trim()));
            }
            if (blank) {
                continue;
            }
            RecordFields.Bytes r = fields;
            r.n = 0;
            int i = from;
            while (i < to) {
                while (i < to && (b[i] == ' ' || b[i] == '\t')) {
                    i++;
                }
                if (i == to) {
                    break;
                }
                int s = i;
                while (i < to && b[i] != ' ' && b[i] != '\t') {
                    i++;
                }
                r.add(s, i);
            }
            line = lineNo;
            return r;
        }
    }

    /** The digest of every byte of the file (the rest is read first). */
    String sha256() throws DataException {
        try {
            if (raw != null) {
                while (!eof) {
                    pos = 0;
                    lim = 0;
                    fill();
                }
            } else {
                text.drain();
            }
        } catch (IOException e) {
            throw new DataException(file, null, "cannot read file: " + e.getMessage(), e);
        }
        return HexFormat.of().formatHex(md.digest());
    }

    @Override
    public void close() throws DataException {
        try {
            if (raw != null) {
                raw.close();
            }
            if (text != null) {
                text.close();
            }
        } catch (IOException e) {
            throw new DataException(file, null, "cannot read file: " + e.getMessage(), e);
        }
    }
}
