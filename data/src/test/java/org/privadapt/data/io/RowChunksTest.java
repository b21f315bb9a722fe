package org.privadapt.data.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.DenseMatrix;

/**
 * {@link RowChunks} against the whole-file loader: the blocks, put together, are the loaded (and preprocessed) matrix
 * bit for bit, whatever the block size (1, a few, more than n); a file the loader refuses is refused with the same
 * one-line message, including when the problem the loader reports first lies after another one in the file.
 */
class RowChunksTest {
    @TempDir
    Path dir;

    static final DataFiles.Options TARGET = new DataFiles.Options(null, null, null, false, false, List.of(), null, 0, null, true);
    static final DataFiles.Options SOURCE = DataFiles.Options.DEFAULT;

    /** n rows, d features (values from 1e-3 to 1e3, some negative, one zero row), a label column. */
    static String table(int n, int d, char sep, boolean numericLabels) {
        SplittableRandom rng = new SplittableRandom(11);
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < d; j++) {
            sb.append("f").append(j).append(sep);
        }
        sb.append("label\n");
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                double v = i == 3 ? 0 : (rng.nextDouble() - 0.3) * Math.pow(10, rng.nextInt(-3, 4));
                sb.append(i % 5 == 0 ? String.format(Locale.ROOT, "%.4f", v) : Double.toString(v)).append(sep);
            }
            sb.append(numericLabels ? Integer.toString(i % 3 + 1) : new String[] {"b", "a", "c"}[i % 3]).append('\n');
        }
        return sb.toString();
    }

    Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    static DenseMatrix stacked(List<RowChunks.Chunk> chunks, int d) {
        int n = chunks.stream().mapToInt(RowChunks.Chunk::rows).sum();
        DenseMatrix x = DenseMatrix.zeros(n, d);
        int r = 0;
        for (RowChunks.Chunk c : chunks) {
            assertThat(c.firstRow()).isEqualTo(r);
            for (int a = 0; a < c.rows(); a++, r++) {
                for (int j = 0; j < d; j++) {
                    x.set(r, j, c.features().get(a, j));
                }
            }
        }
        return x;
    }

    @Test
    void theBlocksAreTheLoadedMatrixBitForBitForEveryBlockSize() throws Exception {
        int n = 53;
        int d = 6;
        for (String name : List.of("t.csv", "t.tsv", "t.txt")) {
            char sep = name.endsWith(".csv") ? ',' : name.endsWith(".tsv") ? '\t' : ' ';
            Path p = write(name, table(n, d, sep, name.endsWith(".txt")));
            for (String pre : List.of("none", "l2,scale=2", "clip=3")) {
                Preprocessing steps = Preprocessing.parse(pre);
                Dataset whole = steps.fitAndApply(DataFiles.load(p, name, SOURCE).requireNonEmpty().requireFinite());
                RowChunks rc = RowChunks.open(p, name, SOURCE);
                assertThat(rc.dimension()).isEqualTo(d);
                assertThat(rc.featureNames()).isEqualTo(whole.featureNames());
                for (int chunk : new int[] {1, 4, 17, n, n + 10}) {
                    List<RowChunks.Chunk> got = new ArrayList<>();
                    RowChunks.Summary s = rc.scan(chunk, steps, got::add, null);
                    assertThat(s.rows()).isEqualTo(n);
                    assertThat(got).hasSize((n + chunk - 1) / chunk);
                    assertThat(stacked(got, d).data()).as(name + " " + pre + " chunk " + chunk).isEqualTo(whole.features().toDense().data());
                    ClassLabels y = (ClassLabels) whole.labels().orElseThrow();
                    assertThat(s.classNames()).isEqualTo(y.names());
                    List<String> labels = new ArrayList<>();
                    got.forEach(c -> labels.addAll(List.of(c.labels())));
                    for (int i = 0; i < n; i++) {
                        assertThat(RowChunks.className(labels.get(i))).isEqualTo(y.names().get(y.codes()[i]));
                    }
                    assertThat(s.sha256()).isEqualTo(Files2.sha256(p));
                }
            }
        }
    }

    @Test
    void droppedRowsAndAByteOrderMarkAreReadAsTheLoaderReadsThem() throws Exception {
        String[] lines = table(20, 3, ',', false).split("\n");
        String text = "\uFEFF" + replaceLine(replaceLine(lines, 5, "NA,1,2,a").split("\n"), 11, "1,2,3,?");
        Path p = write("drop.csv", text);
        DataFiles.Options drop = new DataFiles.Options(null, null, null, false, true, List.of(), null, 0, null, false);
        Dataset whole = DataFiles.load(p, "drop", drop);
        assertThat(whole.size()).isLessThan(20);
        List<RowChunks.Chunk> got = new ArrayList<>();
        RowChunks.Summary s = RowChunks.open(p, "drop", drop).scan(3, Preprocessing.none(), got::add, null);
        assertThat(s.rows()).isEqualTo(whole.size());
        assertThat(stacked(got, 3).data()).isEqualTo(whole.features().toDense().data());
    }

    /** The loader's message for a file (loaded, then non-empty and finite as the commands require), or null. */
    static String loaderMessage(Path p, DataFiles.Options o) {
        try {
            DataFiles.load(p, p.getFileName().toString(), o).requireNonEmpty().requireFinite();
            return null;
        } catch (DataException e) {
            return e.getMessage();
        }
    }

    @Test
    void aFileTheLoaderRefusesIsRefusedWithTheSameMessageAndNoBlockAfterTheProblem() throws Exception {
        String good = table(40, 3, ',', false);
        String[] lines = good.split("\n");
        List<String[]> cases = new ArrayList<>();
        // name, text: each is refused by the loader
        cases.add(new String[] {"fields.csv", replaceLine(lines, 30, "1,2,b")});
        cases.add(new String[] {"missing-then-fields.csv", replaceLine(replaceLine(lines, 5, "1,,2,a").split("\n"), 33, "1,2")});
        cases.add(new String[] {"missing.csv", replaceLine(lines, 25, "1,NA,2,a")});
        cases.add(new String[] {"types-by-column.csv", replaceLine(replaceLine(lines, 4, "1,abc,2,a").split("\n"), 36, "NaN,1,2,a")});
        cases.add(new String[] {"overflow.csv", replaceLine(lines, 12, "1,1e400,2,a")});
        cases.add(new String[] {"categorical.csv", "f0,f1,label\n1,x,a\n2,y,b\n"});
        cases.add(new String[] {"label.csv", replaceLine(lines, 20, "1,2,3,NaN")});
        cases.add(new String[] {"header-only.csv", lines[0] + "\n"});
        cases.add(new String[] {"empty.csv", ""});
        cases.add(new String[] {"quote.csv", good + "1,2,\"3\n"});
        for (DataFiles.Options o : List.of(SOURCE, TARGET)) {
            for (String[] c : cases) {
                Path p = write(c[0], c[1]);
                String expected = loaderMessage(p, o);
                if (c[0].equals("label.csv") && o == TARGET) {
                    assertThat(expected).as("the loader reads a target's labels too").isNotNull();
                }
                assertThat(expected).as(c[0]).isNotNull();
                List<RowChunks.Chunk> got = new ArrayList<>();
                assertThatThrownBy(() -> RowChunks.open(p, c[0], o).scan(4, Preprocessing.none(), got::add, null))
                        .as(c[0]).isInstanceOf(DataException.class).hasMessage(expected);
                assertThat(expected).doesNotContain("\n");
            }
        }
        assertThatThrownBy(() -> RowChunks.open(dir.resolve("absent.csv"), "absent", SOURCE)).isInstanceOf(DataException.class)
                .hasMessage(loaderMessage(dir.resolve("absent.csv"), SOURCE));
        // the blocks handed out stop before the first bad row (the caller's sum is discarded anyway)
        Path p = write("late.csv", replaceLine(lines, 30, "1,NA,2,a"));
        List<RowChunks.Chunk> got = new ArrayList<>();
        assertThatThrownBy(() -> RowChunks.open(p, "late", SOURCE).scan(4, Preprocessing.none(), got::add, null))
                .hasMessageContaining("line 30");
        assertThat(got.stream().mapToLong(c -> c.firstRow() + c.rows()).max().orElse(0)).isLessThan(29);
    }

    @Test
    void whatCannotBeStreamedIsRefusedWhenOpened() throws Exception {
        Path p = write("t.csv", table(5, 2, ',', false));
        DataFiles.Options oneHot = new DataFiles.Options(null, null, null, true, false, List.of(), null, 0, null, false);
        assertThatThrownBy(() -> RowChunks.open(p, "t", oneHot)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one-hot");
        Path svm = write("t.svmlight", "1 1:2\n");
        assertThatThrownBy(() -> RowChunks.open(svm, "t", SOURCE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--engine inprocess");
        assertThatThrownBy(() -> RowChunks.open(p, "t", SOURCE).scan(4, Preprocessing.parse("zscore"), c -> { }, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("zscore");
        RowChunks rc = RowChunks.open(p, "t", SOURCE);
        RowChunks.Summary s = rc.scan(2, Preprocessing.none(), c -> { }, null);
        Files.writeString(p, table(5, 2, ',', false).replace("label", "label "));
        assertThatThrownBy(() -> rc.scan(2, Preprocessing.none(), c -> { }, s.sha256())).isInstanceOf(DataException.class)
                .hasMessageContaining("changed");
    }

    /** The text with line {@code number} (1-based, the header is line 1) replaced. */
    static String replaceLine(String[] lines, int number, String with) {
        String[] copy = lines.clone();
        copy[number - 1] = with;
        return String.join("\n", copy) + "\n";
    }
}
