package org.privadapt.data.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.Preprocessing;

/**
 * {@link RowChunks}' own reading of the text (bytes split without FastCSV where a line is plain, FastCSV from the first
 * line that is not) against the whole-file loader's, on the text that tells them apart: line ends, quotes (also after
 * many plain lines, and spanning lines), text that is not ASCII or not UTF-8, byte order marks, blank lines, spaces and
 * control characters around fields, FastCSV's limits. Each file is read as the loader reads it (the blocks bit for bit,
 * the labels and classes), or refused with the loader's message.
 */
class RowChunksTextTest {
    @TempDir
    Path dir;

    /** Lines of a small table: 3 features, label; {@code n} rows. */
    static List<String> rows(int n, String sep) {
        List<String> lines = new ArrayList<>();
        lines.add(String.join(sep, "f0", "f1", "f2", "label"));
        for (int i = 0; i < n; i++) {
            lines.add(String.join(sep, Double.toString(i * 0.25 - 3), String.format(java.util.Locale.ROOT, "%.4f", i / 7.0),
                    Integer.toString(i % 5 - 2), new String[] {"a", "b", "c"}[i % 3]));
        }
        return lines;
    }

    static String text(List<String> lines, String end) {
        return String.join(end, lines) + end;
    }

    static List<String> with(List<String> lines, int lineNumber, String replacement) {
        List<String> copy = new ArrayList<>(lines);
        copy.set(lineNumber - 1, replacement);
        return copy;
    }

    /** Reads each file both ways, with each of the options, and compares. */
    void compare(Map<String, byte[]> files) throws Exception {
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path p = dir.resolve(file.getKey());
            Files.write(p, file.getValue());
            for (DataFiles.Options o : List.of(RowChunksTest.SOURCE, RowChunksTest.TARGET, new DataFiles.Options(null, null, null,
                    false, true, List.of(), null, 0, null, false))) {
                String name = file.getKey() + (o == RowChunksTest.TARGET ? " (target)" : o.dropMissing() ? " (drop)" : "");
                String expected = RowChunksTest.loaderMessage(p, o);
                if (expected != null) {
                    List<RowChunks.Chunk> got = new ArrayList<>();
                    assertThatThrownBy(() -> RowChunks.open(p, file.getKey(), o).scan(3, Preprocessing.none(), got::add, null))
                            .as(name).isInstanceOf(DataException.class).hasMessage(expected);
                    continue;
                }
                Dataset whole = DataFiles.load(p, file.getKey(), o).requireNonEmpty().requireFinite();
                RowChunks rc = RowChunks.open(p, file.getKey(), o);
                assertThat(rc.featureNames()).as(name).isEqualTo(whole.featureNames());
                for (int chunk : new int[] {1, 3, 1000}) {
                    List<RowChunks.Chunk> got = new ArrayList<>();
                    RowChunks.Summary s = rc.scan(chunk, Preprocessing.none(), got::add, null);
                    assertThat(s.rows()).as(name).isEqualTo(whole.size());
                    assertThat(RowChunksTest.stacked(got, rc.dimension()).data()).as(name + " chunk " + chunk)
                            .isEqualTo(whole.features().toDense().data());
                    assertThat(s.sha256()).as(name).isEqualTo(Files2.sha256(p));
                    if (whole.labels().isPresent() && whole.labels().get() instanceof ClassLabels y) {
                        assertThat(s.classNames()).as(name).isEqualTo(y.names());
                        List<String> labels = new ArrayList<>();
                        got.forEach(c -> labels.addAll(List.of(c.labels())));
                        for (int i = 0; i < whole.size(); i++) {
                            assertThat(RowChunks.className(labels.get(i))).as(name + " row " + i).isEqualTo(y.names().get(y.codes()[i]));
                        }
                    }
                }
            }
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void delimitedTextIsReadAsFastCsvReadsIt() throws Exception {
        List<String> plain = rows(40, ",");
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("lf.csv", utf8(text(plain, "\n")));
        files.put("crlf.csv", utf8(text(plain, "\r\n")));
        files.put("cr.csv", utf8(text(plain, "\r")));
        files.put("lone-cr-late.csv", utf8(text(plain.subList(0, 30), "\n") + text(plain.subList(30, 41), "\r")));
        files.put("no-last-line-end.csv", utf8(String.join("\n", plain)));
        files.put("last-line-cr.csv", utf8(String.join("\n", plain) + "\r"));
        files.put("bom.csv", utf8("\uFEFF" + text(plain, "\r\n")));
        files.put("blank-lines.csv", utf8(text(plain.subList(0, 10), "\n") + "\n  \n\t\n\r\n" + text(plain.subList(10, 41), "\n") + "\n\n"));
        files.put("spaces.csv", utf8(text(with(plain, 7, " 1.5 ,\t2 ,3\u0001, a "), "\n")));
        files.put("quote-late.csv", utf8(text(with(plain, 33, "\"1.5\",2,3,\"b\""), "\n")));
        files.put("quoted-separator.csv", utf8(text(with(plain, 12, "1.5,2,3,\"x,y\""), "\n")));
        files.put("quote-spanning-lines.csv", utf8(text(with(with(plain, 20, "1,2,3,\"a\nb\""), 35, "1,,3,a"), "\n")));
        files.put("quote-inside-field.csv", utf8(text(with(plain, 9, "1,2,3,a\"b"), "\n")));
        files.put("unclosed-quote.csv", utf8(text(plain, "\n") + "1,2,\"3\n4,5\n"));
        files.put("missing.csv", utf8(text(with(with(plain, 5, "?,2,3,a"), 9, "1,NA,3,b"), "\n")));
        files.put("empty-fields.csv", utf8(text(with(plain, 5, ",,,"), "\n")));
        files.put("field-count.csv", utf8(text(with(plain, 25, "1,2,3,a,"), "\n")));
        files.put("not-a-number.csv", utf8(text(with(plain, 25, "1,2,1e400,a"), "\n")));
        files.put("numbers-of-every-shape.csv", utf8(text(with(with(with(plain, 3, "-0,+.5e-3,000.1000,1"), 4, "1E22,12345678901234567890,4.9e-324,2"),
                6, "0x1p3,1,1,3"), "\n")));
        files.put("numeric-labels.csv", utf8(text(List.of("f0,y", "1,1", "2,2.0", "3,1e0", "4,+2", "5,3"), "\n")));
        files.put("not-ascii.csv", utf8(text(with(with(plain, 1, "température,f1,f2,label"), 8, "1,2,3,café"), "\n")));
        ByteArrayOutputStream bad = new ByteArrayOutputStream();
        bad.write(utf8(text(plain.subList(0, 10), "\n")));
        bad.write(new byte[] {'1', ',', '2', ',', '3', ',', (byte) 0xE2, (byte) 0x82, ',', '\n'}); // not UTF-8, then a field
        bad.write(new byte[] {'1', ',', '2', ',', '3', ',', 'x', (byte) 0xF0, (byte) 0x9F, '\n'});
        bad.write(utf8(text(plain.subList(10, 41), "\n")));
        files.put("not-utf8.csv", bad.toByteArray());
        files.put("tabs.tsv", utf8(text(with(rows(20, "\t"), 6, "\"1\"\t2\t3\t\"a\tb\""), "\r\n")));
        compare(files);
    }

    @Test
    void fastCsvsLimitsAreItsOwn() throws Exception {
        List<String> plain = rows(10, ",");
        Map<String, byte[]> files = new LinkedHashMap<>();
        // more fields than FastCSV reads in a record (16384)
        files.put("fields.csv", utf8(text(with(plain, 6, "1,".repeat(16_400) + "a"), "\n")));
        // a line of more than a megabyte: read by FastCSV too
        files.put("long-line.csv", utf8(text(with(plain, 6, "1,2,3," + "x".repeat(1_200_000)), "\n")));
        compare(files);
    }

    @Test
    void whitespaceTextIsSplitAsTheLoaderSplitsIt() throws Exception {
        List<String> plain = rows(30, " ");
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("lf.txt", utf8(text(plain, "\n")));
        files.put("crlf.txt", utf8(text(plain, "\r\n")));
        files.put("bom.txt", utf8("\uFEFF" + text(plain, "\n")));
        files.put("tabs-and-spaces.txt", utf8(text(with(with(plain, 4, "\t 1.5 \t  2\t3   a  "), 9, " 1\u000B2 3 b"), "\n")));
        files.put("blank-lines.txt", utf8(text(plain.subList(0, 5), "\n") + "\n   \n\t\t\n\u2003\n\r\n" + text(plain.subList(5, 31), "\n")));
        files.put("control.txt", utf8(text(with(plain, 7, "1 2 3\u0001 a"), "\n")));
        files.put("em-space.txt", utf8(text(with(plain, 7, "1 2 3\u2003 a"), "\n")));
        files.put("not-ascii.txt", utf8(text(with(with(plain, 1, "f0 f1 f2 label"), 8, "1 2 3 café"), "\n")));
        files.put("quotes.txt", utf8(text(with(plain, 8, "\"1\" 2 3 a"), "\n")));
        files.put("no-last-line-end.txt", utf8(String.join("\n", plain) + "\r"));
        files.put("field-count.txt", utf8(text(with(plain, 12, "1 2 3"), "\n")));
        files.put("long-line.txt", utf8(text(with(plain, 6, "1 2 3 " + "x".repeat(1_200_000)), "\n")));
        compare(files);
    }
}
