package org.privadapt.data.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.PrivateText;
import org.privadapt.data.Provenance;
import org.privadapt.data.RealTargets;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.DenseMatrix;
import us.hebi.matlab.mat.format.Mat5;
import us.hebi.matlab.mat.types.MatFile;
import us.hebi.matlab.mat.types.MatlabType;
import us.hebi.matlab.mat.types.Matrix;

/**
 * Issue 46 item 4: each message the readers build from a private row, with messages redacted, still names the file,
 * the kind of position and the rule broken, but holds neither the cell (or label) nor the row's number nor a count;
 * and, not redacted, is today's message. The bad row is always line 17 (row 16), its cell a word no message otherwise
 * holds. The whole-file loader and the streamed reader ({@link RowChunks}) are both checked.
 */
class RedactedMessagesTest {
    static final DataFiles.Options SOURCE = DataFiles.Options.DEFAULT;

    @TempDir
    Path dir;

    /** A table a,b,label with 16 good rows (lines 2..17 less one) and {@code bad} as line 17. */
    Path table(String name, String bad) throws IOException {
        StringBuilder sb = new StringBuilder("a,b,label\n");
        for (int i = 2; i < 17; i++) {
            sb.append(i).append(',').append(i * 0.5).append(',').append(i % 2 == 0 ? "x" : "z").append('\n');
        }
        sb.append(bad).append('\n');
        sb.append("18,9.0,x\n");
        Path p = dir.resolve(name);
        Files.writeString(p, sb.toString(), StandardCharsets.UTF_8);
        return p;
    }

    /** The whole-file loader's message (loaded, then non-empty and finite as the commands require). */
    static String whole(Path p) {
        try {
            DataFiles.load(p, "d", SOURCE).requireNonEmpty().requireFinite();
            throw new AssertionError("accepted " + p);
        } catch (DataException e) {
            return e.getMessage();
        }
    }

    /** The streamed reader's message for the same file. */
    static String streamed(Path p) {
        try {
            RowChunks.open(p, "d", SOURCE).scan(4, Preprocessing.none(), c -> { }, null);
            throw new AssertionError("accepted " + p);
        } catch (DataException e) {
            return e.getMessage();
        }
    }

    /**
     * Checks a message, not redacted and redacted: both start with the file; the plain one is {@code plain}; the
     * redacted one is {@code redacted} and, past the file's name (and any other path in the test's directory, whose name
     * holds random digits), holds none of {@code secrets}.
     */
    void check(Path file, java.util.function.Supplier<String> message, String plain, String redacted, String... secrets) {
        try (PrivateText.Scope s = PrivateText.redact(false)) {
            assertThat(message.get()).isEqualTo(file + plain);
        }
        try (PrivateText.Scope s = PrivateText.redact(true)) {
            String m = message.get();
            assertThat(m).isEqualTo(file + redacted);
            String rest = m.substring(file.toString().length()).replace(dir.toString(), "<dir>");
            for (String secret : secrets) {
                assertThat(rest).as("redacted message holds " + secret).doesNotContain(secret);
            }
        }
    }

    @Test
    void aCellThatIsNotANumber() throws Exception {
        Path p = table("text.csv", "17,secretcell,x");
        String plain = ":line 17, field 2 ('b'): 'secretcell' is not a number (column 'b' holds numbers elsewhere)";
        String redacted = ":line <redacted>, field 2 ('b'): <redacted> is not a number (column 'b' holds numbers elsewhere)";
        check(p, () -> whole(p), plain, redacted, "secretcell", "17");
        check(p, () -> streamed(p), plain, redacted, "secretcell", "17");
    }

    @Test
    void aCellThatIsNaNOrInfinite() throws Exception {
        for (String cell : List.of("NaN", "1e999", "-Infinity")) {
            Path p = table("nan.csv", "17," + cell + ",x");
            String plain = ":line 17, field 2 ('b'): '" + cell + "' is not a finite number (column 'b' holds numbers elsewhere)";
            String redacted = ":line <redacted>, field 2 ('b'): <redacted> is not a finite number (column 'b' holds numbers elsewhere)";
            check(p, () -> whole(p), plain, redacted, cell, "17");
            check(p, () -> streamed(p), plain, redacted, cell, "17");
        }
        // a value the loader reads, or the preprocessing makes, non-finite: Dataset.requireFinite
        Dataset d = new Dataset("d", new DenseMatrix(17, 2, infinityAt(17, 2, 16, 1)), null, null,
                Provenance.of(new Provenance.SourceFile("rows.csv", "", "csv", "")));
        Path f = Path.of("rows.csv");
        check(f, () -> message(d::requireFinite), ":row 17, column 2: value Infinity is not a finite number",
                ":row <redacted>, column 2: value <redacted> is not a finite number", "17", "Infinity");
        Dataset t = new Dataset("d", DenseMatrix.zeros(17, 1), new RealTargets(infinityAt(17, 1, 16, 0), "y"), null,
                Provenance.of(new Provenance.SourceFile("rows.csv", "", "csv", "")));
        check(f, () -> message(t::requireFinite), ":row 17: target Infinity is not a finite number",
                ":row <redacted>: target <redacted> is not a finite number", "17", "Infinity");
    }

    static double[] infinityAt(int n, int d, int row, int col) {
        double[] v = new double[n * d];
        v[row + col * n] = Double.POSITIVE_INFINITY; // column-major
        return v;
    }

    interface Check {
        Object run() throws DataException;
    }

    static String message(Check c) {
        try {
            c.run();
            throw new AssertionError("accepted");
        } catch (DataException e) {
            return e.getMessage();
        }
    }

    @Test
    void aMissingValueAndARowWithTheWrongFieldCount() throws Exception {
        Path p = table("missing.csv", "17,NA,x");
        check(p, () -> whole(p), ":line 17, field 2 ('b'): missing value 'NA'; drop such rows with --missing drop",
                ":line <redacted>, field 2 ('b'): missing value <redacted>; drop such rows with --missing drop", "NA", "17");
        check(p, () -> streamed(p), ":line 17, field 2 ('b'): missing value 'NA'; drop such rows with --missing drop",
                ":line <redacted>, field 2 ('b'): missing value <redacted>; drop such rows with --missing drop", "NA", "17");
        Path q = table("ragged.csv", "17,1,2,3,4,x");
        check(q, () -> whole(q), ":line 17: expected 3 fields (as in the header), found 6",
                ":line <redacted>: expected 3 fields (as in the header), found <redacted>", "17", "6");
        check(q, () -> streamed(q), ":line 17: expected 3 fields (as in the header), found 6",
                ":line <redacted>: expected 3 fields (as in the header), found <redacted>", "17", "6");
    }

    @Test
    void aCategoricalColumn() throws Exception {
        Path p = dir.resolve("cat.csv");
        StringBuilder sb = new StringBuilder("a,colour,label\n");
        for (int i = 2; i <= 18; i++) {
            sb.append(i).append(',').append(i == 17 ? "scarlet" : "ruby").append(",x\n");
        }
        Files.writeString(p, sb.toString());
        // every value of the column is text: the first one is quoted (line 2)
        check(p, () -> whole(p), ":line 2, field 2 ('colour'): column 'colour' is categorical ('ruby'); encode it with "
                + "--categorical one-hot or drop it with --drop-columns", ":line <redacted>, field 2 ('colour'): column 'colour' "
                + "is categorical (<redacted>); encode it with --categorical one-hot or drop it with --drop-columns", "ruby", "line 2");
        check(p, () -> streamed(p), ":line 2, field 2 ('colour'): column 'colour' is categorical ('ruby'); encode it with "
                + "--categorical one-hot or drop it with --drop-columns", ":line <redacted>, field 2 ('colour'): column 'colour' "
                + "is categorical (<redacted>); encode it with --categorical one-hot or drop it with --drop-columns", "ruby");
    }

    @Test
    void aLabelThatIsNotAFiniteNumberInTheStreamAndWhole() throws Exception {
        Path p = table("label.csv", "17,8.5,inf");
        String plain = ":line 17, field 3 ('label'): label 'inf' is not a finite number";
        String redacted = ":line <redacted>, field 3 ('label'): label <redacted> is not a finite number";
        check(p, () -> whole(p), plain, redacted, "inf", "17");
        check(p, () -> streamed(p), plain, redacted, "inf", "17");
    }

    @Test
    void svmLightCellsPositionsAndTheDimensionReadFromTheLargestIndex() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i < 17; i++) {
            sb.append(i % 2).append(" 1:").append(i).append(" 2:0.5\n");
        }
        String good = sb.toString();
        Path p = dir.resolve("bad.svm");
        Files.writeString(p, good + "1 1:2 2:secretvalue\n");
        check(p, () -> message(() -> SvmLightLoader.load(p, "d", SvmLightLoader.Options.AUTO)),
                ":line 17, token 3: value 'secretvalue' is not a number", ":line <redacted>, token <redacted>: value <redacted> is not a number",
                "secretvalue", "17");
        Path dup = dir.resolve("dup.svm");
        Files.writeString(dup, good + "1 733:2 733:1\n");
        check(dup, () -> message(() -> SvmLightLoader.load(dup, "d", SvmLightLoader.Options.AUTO)),
                ":line 17: feature index 733 appears twice", ":line <redacted>: feature index <redacted> appears twice", "733", "17");
        // d read from the largest index: a stated dimension it exceeds is refused without the index
        Path wide = dir.resolve("wide.svm");
        Files.writeString(wide, good + "1 1:2 733:1\n");
        check(wide, () -> message(() -> SvmLightLoader.load(wide, "d", new SvmLightLoader.Options(SvmLightLoader.IndexBase.ONE, 5))),
                ": feature index 733 exceeds the stated dimension 5", ": feature index <redacted> exceeds the stated dimension 5", "733");
        // ... and a dimension that does not match another domain's names the header's, not the one read from the rows
        Dataset svm = SvmLightLoader.load(wide, "tgt", SvmLightLoader.Options.AUTO);
        Path csv = table("src.csv", "17,8.5,x");
        Dataset tab = DataFiles.load(csv, "src", SOURCE);
        check(wide, () -> message(() -> {
            tab.requireSameDimension(svm);
            return null;
        }), ": domain 'tgt' has 733 features but domain 'src' (" + csv + ") has 2",
                ": domain 'tgt' has <redacted> features but domain 'src' (" + csv + ") has 2", "733");
        // declared public (--target-public schema), it is named
        Dataset declared = svm.withPublicFacts(new org.privadapt.data.PublicFacts(null, null, "declared", false));
        try (PrivateText.Scope s = PrivateText.redact(true)) {
            assertThat(message(() -> {
                tab.requireSameDimension(declared);
                return null;
            })).contains("has 733 features");
        }
    }

    @Test
    void matLabelsAndTruncatedFiles() throws Exception {
        MatFile mat = Mat5.newMatFile();
        Matrix x = Mat5.newMatrix(20, 3, MatlabType.Double);
        Matrix y = Mat5.newMatrix(20, 1, MatlabType.Double);
        for (int i = 0; i < 20; i++) {
            x.setDouble(i, 0, i);
            y.setDouble(i, 0, i == 16 ? Double.NaN : 1 + i % 2);
        }
        mat.addArray("X", x);
        mat.addArray("y", y);
        Path p = dir.resolve("nan.mat");
        Mat5.writeToFile(mat, p.toFile());
        check(p, () -> message(() -> MatLoader.load(p, "d", new MatLoader.Options("X", "y"))),
                ":variable 'y', element 17: label NaN is not a finite number",
                ":variable 'y', element <redacted>: label <redacted> is not a finite number", "17", "NaN");
        // a truncated file: the variable's offset and sizes are those of the rows
        byte[] b = Files.readAllBytes(p);
        Path cut = dir.resolve("cut.mat");
        Files.write(cut, Arrays.copyOf(b, b.length - 3));
        try (PrivateText.Scope s = PrivateText.redact(false)) {
            assertThat(message(() -> MatLoader.load(cut, "d", MatLoader.Options.AUTO))).startsWith(cut + ":byte ")
                    .contains(" bytes but the file ends after " + (b.length - 3 - 8 - 128 - sizeOfFirst(b)));
        }
        try (PrivateText.Scope s = PrivateText.redact(true)) {
            assertThat(message(() -> MatLoader.load(cut, "d", MatLoader.Options.AUTO))).isEqualTo(cut + ":byte <redacted>: variable #2 "
                    + "declares <redacted> bytes but the file ends after <redacted> (truncated)");
        }
        // shapes (n x d) in a refusal that lists the variables
        check(p, () -> message(() -> MatLoader.load(p, "d", new MatLoader.Options("Z", null))),
                ": no variable 'Z' for the features; the file holds X (20x3 double), y (20x1 double)",
                ": no variable 'Z' for the features; the file holds X (<redacted> double), y (<redacted> double)", "20");
    }

    /** The bytes of the first variable of a MAT file after its 8-byte tag (little-endian, as mfl writes). */
    static int sizeOfFirst(byte[] b) {
        int size = (b[132] & 0xff) | (b[133] & 0xff) << 8 | (b[134] & 0xff) << 16 | (b[135] & 0xff) << 24;
        return size + 8;
    }
}
