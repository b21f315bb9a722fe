package org.privadapt.data.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.data.io.RawMatWriter.cellElement;
import static org.privadapt.data.io.RawMatWriter.denseCell;
import static org.privadapt.data.io.RawMatWriter.singleColumn;
import static org.privadapt.data.io.RawMatWriter.sparseCell;
import static org.privadapt.data.io.RawMatWriter.uint8Column;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.PrivateText;

/**
 * Cell arrays, sparse matrices, uncompressed (miMATRIX) and compressed (miCOMPRESSED) variables and doubles stored
 * as miUINT8, on MAT files written byte by byte ({@link RawMatWriter}): the layouts of the landmine, MTFS3, spam and
 * Reuters files, small.
 */
class MatCellsTest {
    @TempDir
    Path dir;

    static final double[][] F1 = {{1.5, -2}, {0, 3}, {4, 0.25}};
    static final double[][] F2 = {{7, 8}, {-9, 10}};
    static final double[][] F3 = {{0.5, 0}, {0, 0.5}, {1, 1}, {2, 2}};

    Path write(String name, RawMatWriter w) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, w.bytes());
        return p;
    }

    /** The landmine layout: feature{i} n_i x d, label{i} n_i x 1 stored as miUINT8. */
    RawMatWriter fields(boolean compressed) {
        RawMatWriter w = new RawMatWriter();
        if (compressed) {
            w.compressed();
        }
        return w.cell("feature", 1, 3, denseCell(F1), denseCell(F2), denseCell(F3))
                .cell("label", 1, 3, uint8Column(0, 1, 0), uint8Column(200, 1), uint8Column(1, 1, 0, 0));
    }

    @Test
    void oneCellOfACellArrayWithItsLabelsFromTheSameCell() throws Exception {
        for (boolean compressed : new boolean[] {false, true}) {
            Path p = write("fields" + compressed + ".mat", fields(compressed));
            Dataset d = MatLoader.load(p, "f2", new MatLoader.Options("feature{2}", null));
            assertThat(d.size()).isEqualTo(2);
            assertThat(d.features().row(1)).containsExactly(-9, 10);
            ClassLabels y = d.classLabels();
            assertThat(y.names()).containsExactly("1", "200"); // miUINT8 above 127 widened as unsigned
            assertThat(y.codes()).containsExactly(1, 0);
            assertThat(d.provenance().files().get(0).detail()).contains("labels=label{2}");
            // {row,col} indices and explicit labels
            Dataset d3 = MatLoader.load(p, "f3", new MatLoader.Options("feature{1,3}", "label{3}"));
            assertThat(d3.size()).isEqualTo(4);
            assertThat(d3.features().row(3)).containsExactly(2, 2);
            assertThat(d3.classLabels().counts()).containsExactly(2, 2);
        }
    }

    @Test
    void aWholeCellArrayIsItsMatricesStacked() throws Exception {
        Path p = write("all.mat", fields(false));
        Dataset d = MatLoader.load(p, "all", new MatLoader.Options("feature", "label"));
        assertThat(d.size()).isEqualTo(9);
        assertThat(d.dimension()).isEqualTo(2);
        assertThat(d.features().row(0)).containsExactly(1.5, -2);
        assertThat(d.features().row(3)).containsExactly(7, 8);
        assertThat(d.features().row(8)).containsExactly(2, 2);
        assertThat(d.classLabels().names()).containsExactly("0", "1", "200");
        // the labels are found without being named: the other cell array of the same shape
        assertThat(MatLoader.load(p, "all", new MatLoader.Options("feature", null)).size()).isEqualTo(9);
        assertThat(MatLoader.describe(p)).containsExactly("feature 1x3 cell of 3 double", "label 1x3 cell of 3 double");
    }

    @Test
    void nestedCellsOfColumnVectorsAreOneObservationEach() throws Exception {
        // the MTFS3 layout: features{c}{i} a d x 1 single column, labels{c} a vector stored as miUINT8
        byte[] class1 = cellElement("", 1, 2, singleColumn(1, 2, 3), singleColumn(4, 5, 6));
        byte[] class2 = cellElement("", 1, 1, singleColumn(7, 8, 9.5));
        for (boolean compressed : new boolean[] {false, true}) {
            RawMatWriter w = new RawMatWriter();
            if (compressed) {
                w.compressed();
            }
            Path p = write("mtfs" + compressed + ".mat", w.cell("features", 1, 2, class1, class2)
                    .cell("labels", 1, 2, uint8Column(1, 1), uint8Column(2)));
            Dataset d = MatLoader.load(p, "m", new MatLoader.Options("features", "labels"));
            assertThat(d.size()).isEqualTo(3);
            assertThat(d.dimension()).isEqualTo(3);
            assertThat(d.features().row(1)).containsExactly(4, 5, 6);
            assertThat(d.features().row(2)).containsExactly(7, 8, 9.5);
            assertThat(d.classLabels().codes()).containsExactly(0, 0, 1);
            assertThat(d.provenance().files().get(0).detail()).contains("transposed");
            // unlabelled: column vectors are still one observation each
            Dataset u = MatLoader.load(p, "m", new MatLoader.Options("features{1}", "nope", true));
            assertThat(u.size()).isEqualTo(2);
            assertThat(u.hasLabels()).isFalse();
        }
    }

    @Test
    void cellsOfSparseMatricesStaySparse() throws Exception {
        // the spam layout: X{u} n x d sparse, Y{u} labels stored as miUINT8
        double[][] x1 = {{0, 0, 3, 0, 0}, {1, 0, 0, 0, 2}};
        double[][] x2 = {{0, 4, 0, 0, 0}, {0, 0, 0, 0, 0}, {5, 0, 0, 6, 0}};
        for (boolean compressed : new boolean[] {false, true}) {
            RawMatWriter w = new RawMatWriter();
            if (compressed) {
                w.compressed();
            }
            Path p = write("spam" + compressed + ".mat", w.cell("X", 1, 2, sparseCell(x1), sparseCell(x2))
                    .cell("Y", 1, 2, uint8Column(0, 1), uint8Column(1, 0, 1)));
            Dataset d = MatLoader.load(p, "u2", new MatLoader.Options("X{2}", "Y{2}").withOrientation(MatLoader.Orientation.ROWS));
            assertThat(d.features().isSparse()).isTrue();
            assertThat(d.features().storedEntries()).isEqualTo(3);
            for (int i = 0; i < 3; i++) {
                assertThat(d.features().row(i)).containsExactly(x2[i]);
            }
            assertThat(d.classLabels().codes()).containsExactly(1, 0, 1);
            Dataset all = MatLoader.load(p, "all", new MatLoader.Options("X", "Y"));
            assertThat(all.size()).isEqualTo(5);
            assertThat(all.features().isSparse()).isTrue();
            assertThat(all.features().row(4)).containsExactly(x2[2]);
        }
    }

    @Test
    void sparseDocumentsPerColumnAndSparseLabels() throws Exception {
        // the Reuters layout: Xs d x n sparse (one column per document), Ys n x 1 sparse -1/+1
        double[][] xs = {{0, 1, 0}, {2, 0, 0}, {0, 0, 3}, {4, 5, 0}};
        double[][] ys = {{-1}, {1}, {1}};
        Path p = write("reuters.mat", new RawMatWriter().compressed().sparse("Xs", xs).sparse("Ys", ys));
        Dataset d = MatLoader.load(p, "s", new MatLoader.Options("Xs", "Ys"));
        assertThat(d.size()).isEqualTo(3);
        assertThat(d.dimension()).isEqualTo(4);
        assertThat(d.features().isSparse()).isTrue();
        assertThat(d.features().row(0)).containsExactly(0, 2, 0, 4);
        assertThat(d.features().row(1)).containsExactly(1, 0, 0, 5);
        assertThat(d.classLabels().names()).containsExactly("-1", "1");
        assertThat(d.classLabels().codes()).containsExactly(0, 1, 1);
        // unlabelled (the 20 Newsgroups files): the orientation is told
        Dataset u = MatLoader.load(p, "u", new MatLoader.Options("Xs", null).withOrientation(MatLoader.Orientation.COLUMNS));
        assertThat(u.size()).isEqualTo(3);
        assertThat(u.features().row(2)).containsExactly(0, 0, 3, 0);
        assertThat(MatLoader.load(p, "u", new MatLoader.Options("Xs", "nope", true)).size()).isEqualTo(4); // per row by default
    }

    @Test
    void doublesStoredAsUint8AreWidened() throws Exception {
        Path p = write("u8.mat", new RawMatWriter().dense("X", new double[][] {{0.5, 1}, {2, 3}, {4, 5}})
                .uint8Stored("y", new double[][] {{255}, {128}, {3}}));
        Dataset d = MatLoader.load(p, "d", MatLoader.Options.AUTO);
        assertThat(d.classLabels().names()).containsExactly("3", "128", "255");
        assertThat(d.classLabels().codes()).containsExactly(2, 1, 0);
        Path q = write("u8x.mat", new RawMatWriter().compressed().uint8Stored("X", new double[][] {{250, 1}, {2, 130}}));
        assertThat(MatLoader.load(q, "d", MatLoader.Options.AUTO).features().row(0)).containsExactly(250, 1);
    }

    @Test
    void badReferencesAndUnstackableCellsAreExplained() throws Exception {
        Path p = write("bad.mat", fields(false).cell("ragged", 1, 2, denseCell(F1), denseCell(new double[][] {{1, 2, 3}}))
                .dense("plain", F1));
        assertThatThrownBy(() -> MatLoader.load(p, "d", new MatLoader.Options("feature{4}", null)))
                .isInstanceOf(DataException.class).hasMessageContaining("has 3 cells (1x3)").hasMessageContaining("out of range");
        assertThatThrownBy(() -> MatLoader.load(p, "d", new MatLoader.Options("feature{0}", null)))
                .hasMessageContaining("cell indices start at 1");
        assertThatThrownBy(() -> MatLoader.load(p, "d", new MatLoader.Options("feature{x}", null)))
                .hasMessageContaining("is not a 1-based cell index");
        assertThatThrownBy(() -> MatLoader.load(p, "d", new MatLoader.Options("plain{1}", null)))
                .hasMessageContaining("not a cell array");
        assertThatThrownBy(() -> MatLoader.load(p, "d", new MatLoader.Options("ragged", null)))
                .hasMessageContaining("do not stack").hasMessageContaining("'ragged{1}'");
        assertThatThrownBy(() -> MatLoader.load(p, "d", new MatLoader.Options("feature{1}", "label{3}")))
                .hasMessageContaining("do not match");
        assertThatThrownBy(() -> MatLoader.load(p, "d", new MatLoader.Options("nope{1}", null)))
                .hasMessageContaining("no variable 'nope'");
        // a file of cells alone: automatic detection says how to name them
        Path cells = write("cells.mat", fields(true));
        assertThatThrownBy(() -> MatLoader.load(cells, "d", MatLoader.Options.AUTO))
                .hasMessageContaining("feature (1x3 cell of 3 double)").hasMessageContaining("--features-var 'feature{1}'");
        try (PrivateText.Scope s = PrivateText.redact(true)) {
            assertThatThrownBy(() -> MatLoader.load(cells, "d", MatLoader.Options.AUTO))
                    .hasMessageContaining("feature (<redacted> cell of <redacted>").satisfies(e -> assertThat(e.getMessage())
                            .doesNotContain("1x3"));
        }
    }

    @Test
    void corruptSparseEntriesAreReported() throws Exception {
        double[][] x = {{1, 0}, {0, 2}, {3, 0}};
        // row index 7 in a 3-row matrix
        Path out = write("ir.mat", new RawMatWriter().raw(RawMatWriter.sparse("X", x, new int[] {7})));
        assertThatThrownBy(() -> MatLoader.load(out, "d", new MatLoader.Options("X", null)))
                .isInstanceOf(DataException.class).hasMessageContaining("X");
        // column 0 stores row 0 twice
        Path twice = write("twice.mat", new RawMatWriter().raw(RawMatWriter.sparse("X", x, new int[] {0, 0})));
        assertThatThrownBy(() -> MatLoader.load(twice, "d", new MatLoader.Options("X", null).withOrientation(MatLoader.Orientation.COLUMNS)))
                .isInstanceOf(DataException.class).hasMessageContaining("variable 'X'").hasMessageContaining("two entries");
    }

    @Test
    void brokenNestedElementsAreReportedWithTheirByteOffset() throws Exception {
        byte[] good = fields(false).bytes();
        // the second cell of 'feature' (a nested miMATRIX): make it declare more bytes than its cell holds
        int first = 128;
        int firstCell = first + 8 + 16 + 16 + 16; // tag, flags, dims, name 'feature' (7 bytes padded to 8 + tag 8)
        int secondCell = firstCell + 8 + ByteBuffer.wrap(good, firstCell + 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        assertThat(ByteBuffer.wrap(good, secondCell, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()).isEqualTo(RawMatWriter.MI_MATRIX);
        byte[] bad = good.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(secondCell + 4, 100_000);
        Path p = dir.resolve("nested.mat");
        Files.write(p, bad);
        assertThatThrownBy(() -> MatLoader.load(p, "d", new MatLoader.Options("feature{1}", null)))
                .isInstanceOf(DataException.class).hasMessageStartingWith(p + ":byte " + secondCell + ": variable #1's sub-element #5")
                .hasMessageContaining("declares 100000 bytes but its matrix ends after");
        // inside a compressed variable: the variable's tag offset, and the byte within the inflated element
        byte[] inner = Arrays.copyOfRange(bad, first, first + 8 + ByteBuffer.wrap(bad, first + 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
        Path c = write("nestedz.mat", new RawMatWriter().compressed().raw(inner));
        assertThatThrownBy(() -> MatLoader.load(c, "d", new MatLoader.Options("feature{1}", null)))
                .hasMessageStartingWith(c + ":byte 128: compressed variable #1's sub-element #5 (inflated byte " + (secondCell - first)
                        + ") declares 100000 bytes");
        // truncated inside the uncompressed cell array
        Path cut = dir.resolve("cut.mat");
        Files.write(cut, Arrays.copyOf(good, secondCell + 20));
        assertThatThrownBy(() -> MatLoader.load(cut, "d", new MatLoader.Options("feature{1}", null)))
                .hasMessageStartingWith(cut + ":byte 128: variable #1 declares").hasMessageContaining("(truncated)");
    }

    @Test
    void severalDatasetsFromOneFileParseItOnce() throws Exception {
        Path p = write("fields.mat", fields(true));
        List<Dataset> ds = MatLoader.loadAll(p, List.of(new MatLoader.Request("a", new MatLoader.Options("feature{1}", "label{1}")),
                new MatLoader.Request("b", new MatLoader.Options("feature{3}", "label{3}"))));
        assertThat(ds).extracting(Dataset::domain).containsExactly("a", "b");
        assertThat(ds).extracting(Dataset::size).containsExactly(3, 4);
        assertThat(ds.get(0).provenance().files().get(0).sha256()).isEqualTo(ds.get(1).provenance().files().get(0).sha256());
    }
}
