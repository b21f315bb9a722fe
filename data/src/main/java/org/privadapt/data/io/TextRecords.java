package org.privadapt.data.io;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The records of a table file as text, split as {@link TextTable#read} splits them: FastCSV for a delimited file,
 * whole lines split on white space otherwise; blank lines and lines with the skip prefix skipped. {@link RecordReader}
 * hands over to it from the first line it does not split itself (or reads with it alone: a skip prefix, a FastCSV buffer
 * limited by a system property); it reads the file again from its start, into the digest, and hands out the records
 * from a given line on.
 */
final class TextRecords implements AutoCloseable {
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private final TextTable.Format format;
    private final long skipBefore; // the records (lines) before this line were handed out by the fast reader
    private final InputStream in;
    private final BufferedReader reader;
    private final CsvReader<CsvRecord> csv;
    private final Iterator<CsvRecord> records;
    private long line;
    private long lineNo; // the number of lines read

    /**
     * Opens the file at its start, after a byte order mark.
     *
     * @param md         the digest every byte read goes into
     * @param skipBefore the records (lines) before this line are skipped: the fast reader handed them out
     */
    TextRecords(Path file, TextTable.Format format, MessageDigest md, boolean delimited, char sep, long skipBefore) throws IOException {
        this.format = format;
        this.skipBefore = skipBefore;
        in = new DigestInputStream(Files.newInputStream(file), md);
        reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
        reader.mark(1);
        int c = reader.read();
        if (c != '\uFEFF') {
            reader.reset();
        }
        if (delimited) {
            csv = CsvReader.builder().fieldSeparator(sep).quoteCharacter('"').skipEmptyLines(true)
                    .ignoreDifferentFieldCount(true).ofCsvRecord((Reader) reader);
            records = csv.iterator();
        } else {
            csv = null;
            records = null;
        }
    }

    /** The next record, or null at the end. */
    RecordFields next() throws IOException {
        return csv != null ? nextDelimited() : nextLine();
    }

    /** The line of the record last returned. */
    long line() {
        return line;
    }

    private RecordFields nextDelimited() {
        while (records.hasNext()) {
            CsvRecord rec = records.next();
            if (rec.getStartingLineNumber() < skipBefore) {
                continue; // handed out by the fast reader
            }
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
            line = rec.getStartingLineNumber();
            return new RecordFields.Strings(arr);
        }
        return null;
    }

    private RecordFields nextLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            sb.setLength(0);
            int c;
            boolean any = false;
            while ((c = reader.read()) >= 0 && c != '\n') {
                sb.append((char) c);
                any = true;
            }
            if (c < 0 && !any) {
                return null;
            }
            lineNo++;
            if (lineNo < skipBefore) {
                continue; // handed out by the fast reader
            }
            int len = sb.length();
            if (len > 0 && sb.charAt(len - 1) == '\r') {
                sb.setLength(len - 1); // split("\r?\n")
            }
            String s = sb.toString();
            if (s.isBlank() || (format.skipPrefix() != null && s.startsWith(format.skipPrefix()))) {
                if (c < 0) {
                    return null;
                }
                continue;
            }
            line = lineNo;
            if (format.separator() != TextTable.Separator.WHITESPACE) {
                throw new IllegalArgumentException("fixed-width text is not read in chunks");
            }
            return new RecordFields.Strings(WHITESPACE.split(s.trim()));
        }
    }

    /** Reads the rest of the file, for the digest. */
    void drain() throws IOException {
        byte[] skip = new byte[1 << 16];
        while (in.read(skip) > 0) {
            // the remaining bytes, for the digest
        }
    }

    @Override
    public void close() throws IOException {
        if (csv != null) {
            csv.close();
        }
        reader.close();
    }
}
