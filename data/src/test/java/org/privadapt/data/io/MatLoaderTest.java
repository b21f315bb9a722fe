package org.privadapt.data.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.RealTargets;
import us.hebi.matlab.mat.format.Mat5;
import us.hebi.matlab.mat.types.MatFile;
import us.hebi.matlab.mat.types.MatlabType;
import us.hebi.matlab.mat.types.Matrix;

class MatLoaderTest {
    @TempDir
    Path dir;

    /** A compressed MAT file (mfl writes zlib-compressed variables) with features of type {@code t}. */
    Path writeCompressed(String name, String fName, MatlabType t, int n, int d, boolean transposed, String yName) throws IOException {
        MatFile mat = Mat5.newMatFile();
        Matrix x = transposed ? Mat5.newMatrix(d, n, t) : Mat5.newMatrix(n, d, t);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                double v = (i * 7 + j * 3) % 11 + (t == MatlabType.UInt8 ? 240 : 0);
                if (transposed) {
                    x.setDouble(j, i, v);
                } else {
                    x.setDouble(i, j, v);
                }
            }
        }
        mat.addArray(fName, x);
        if (yName != null) {
            Matrix y = Mat5.newMatrix(n, 1, MatlabType.UInt8);
            for (int i = 0; i < n; i++) {
                y.setDouble(i, 0, 1 + i % 3);
            }
            mat.addArray(yName, y);
        }
        mat.addArray("note", Mat5.newString("not data"));
        Path p = dir.resolve(name);
        Mat5.writeToFile(mat, p.toFile());
        return p;
    }

    @Test
    void findsFeaturesAndLabelsByShapeWhateverTheirNames() throws Exception {
        for (MatlabType t : new MatlabType[] {MatlabType.Double, MatlabType.Single, MatlabType.Int32, MatlabType.UInt8,
            MatlabType.Int16, MatlabType.UInt16, MatlabType.Int64}) {
            Path p = writeCompressed("a_" + t + ".mat", "Xfeat", t, 12, 5, false, "yy");
            Dataset d = MatLoader.load(p, "dom", MatLoader.Options.AUTO);
            assertThat(d.size()).isEqualTo(12);
            assertThat(d.dimension()).isEqualTo(5);
            ClassLabels y = d.classLabels();
            assertThat(y.names()).containsExactly("1", "2", "3");
            assertThat(y.code(4)).isEqualTo(1); // value 2
            double expected = (3 * 7 + 2 * 3) % 11 + (t == MatlabType.UInt8 ? 240 : 0);
            assertThat(d.features().get(3, 2)).as("type %s", t).isEqualTo(expected);
            assertThat(d.provenance().files().get(0).detail()).contains("Xfeat").contains("yy");
            assertThat(d.provenance().files().get(0).sha256()).hasSize(64);
        }
    }

    @Test
    void unsignedBytesAbove127AreReadAsUnsigned() throws Exception {
        Path p = writeCompressed("u8.mat", "fts", MatlabType.UInt8, 4, 3, false, "labels");
        Dataset d = MatLoader.load(p, "dom", MatLoader.Options.AUTO);
        assertThat(d.features().get(0, 0)).isEqualTo(240.0);
    }

    @Test
    void transposedFeaturesAreDetected() throws Exception {
        Path p = writeCompressed("t.mat", "X", MatlabType.Double, 9, 4, true, "Y");
        Dataset d = MatLoader.load(p, "dom", MatLoader.Options.AUTO);
        assertThat(d.size()).isEqualTo(9);
        assertThat(d.dimension()).isEqualTo(4);
        assertThat(d.features().get(5, 1)).isEqualTo((5 * 7 + 3) % 11);
        assertThat(d.provenance().files().get(0).detail()).contains("transposed");
    }

    @Test
    void namedVariablesOverrideDetection() throws Exception {
        MatFile mat = Mat5.newMatFile();
        Matrix a = Mat5.newMatrix(6, 3);
        Matrix b = Mat5.newMatrix(6, 2);
        Matrix y = Mat5.newMatrix(1, 6);
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 3; j++) {
                a.setDouble(i, j, i + j);
            }
            b.setDouble(i, 0, -i);
            b.setDouble(i, 1, i * 0.5);
            y.setDouble(0, i, i % 2 == 0 ? -1 : 1);
        }
        mat.addArray("A", a).addArray("B", b).addArray("target", y);
        Path p = dir.resolve("two.mat");
        Mat5.writeToFile(mat, p.toFile());
        assertThatThrownBy(() -> MatLoader.load(p, "dom", MatLoader.Options.AUTO))
                .isInstanceOf(DataException.class).hasMessageContaining(p.toString())
                .hasMessageContaining("--features-var").hasMessageContaining("A (6x3 double)");
        Dataset d = MatLoader.load(p, "dom", new MatLoader.Options("B", null));
        assertThat(d.dimension()).isEqualTo(2);
        assertThat(d.classLabels().names()).containsExactly("-1", "1");
        assertThatThrownBy(() -> MatLoader.load(p, "dom", new MatLoader.Options("nope", null)))
                .hasMessageContaining("no variable 'nope'");
    }

    @Test
    void nonIntegerLabelVectorGivesRealTargets() throws Exception {
        Path p = dir.resolve("reg.mat");
        Files.write(p, new RawMatWriter().dense("X", new double[][] {{1, 2}, {3, 4}, {5, 6}})
                .dense("y", new double[][] {{0.5}, {1.5}, {2.25}}).bytes());
        Dataset d = MatLoader.load(p, "dom", MatLoader.Options.AUTO);
        assertThat(d.labels().orElseThrow()).isInstanceOf(RealTargets.class);
        assertThatThrownBy(d::classLabels).isInstanceOf(DataException.class).hasMessageContaining("real-valued");
    }

    @Test
    void uncompressedDenseAndSparseAreRead() throws Exception {
        double[][] x = {{0, 2, 0, 0}, {1, 0, 0, 3}, {0, 0, 0, 0}, {4, 0, 5, 0}};
        Path p = dir.resolve("sparse.mat");
        Files.write(p, new RawMatWriter().sparse("S", x).dense("lab", new double[][] {{1}, {2}, {1}, {2}}).bytes());
        Dataset d = MatLoader.load(p, "dom", MatLoader.Options.AUTO);
        assertThat(d.features().isSparse()).isTrue();
        for (int i = 0; i < 4; i++) {
            assertThat(d.features().row(i)).containsExactly(x[i]);
        }
    }

    @Test
    void unlabelledFileHasNoLabels() throws Exception {
        Path p = dir.resolve("u.mat");
        Files.write(p, new RawMatWriter().dense("X", new double[][] {{1, 2}, {3, 4}}).bytes());
        Dataset d = MatLoader.load(p, "dom", MatLoader.Options.AUTO);
        assertThat(d.hasLabels()).isFalse();
        assertThatThrownBy(d::classLabels).hasMessageContaining("no labels");
    }

    @Test
    void missingFileIsReported() {
        Path p = dir.resolve("nope.mat");
        assertThatThrownBy(() -> MatLoader.load(p, "d", MatLoader.Options.AUTO))
                .isInstanceOf(DataException.class).hasMessage(p + ": no such file");
    }

    @Test
    void truncatedFileIsReportedWithByteOffset() throws Exception {
        Path good = writeCompressed("g.mat", "fts", MatlabType.Double, 30, 8, false, "labels");
        byte[] b = Files.readAllBytes(good);
        for (int cut : new int[] {60, 128 + 4, b.length / 2, b.length - 3}) {
            Path p = dir.resolve("cut" + cut + ".mat");
            Files.write(p, Arrays.copyOf(b, cut));
            assertThatThrownBy(() -> MatLoader.load(p, "d", MatLoader.Options.AUTO))
                    .isInstanceOf(DataException.class).hasMessageStartingWith(p + ":byte ")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        }
    }

    @Test
    void corruptCompressedStreamIsReported() throws Exception {
        Path good = writeCompressed("g2.mat", "fts", MatlabType.Double, 30, 8, false, "labels");
        byte[] b = Files.readAllBytes(good);
        for (int k = 140; k < 180; k++) {
            b[k] ^= (byte) 0x5A;
        }
        Path p = dir.resolve("corrupt.mat");
        Files.write(p, b);
        assertThatThrownBy(() -> MatLoader.load(p, "d", MatLoader.Options.AUTO))
                .isInstanceOf(DataException.class).hasMessageContaining(p.toString()).hasMessageContaining("byte 128");
    }

    @Test
    void notAMatFileIsReported() throws Exception {
        Path p = dir.resolve("text.mat");
        Files.writeString(p, "hello, this is not a MAT-file at all; it is long enough to have a header of 128 bytes "
                + "but the text does not match the MATLAB signature.....................................");
        assertThatThrownBy(() -> MatLoader.load(p, "d", MatLoader.Options.AUTO))
                .hasMessage(p + ":byte 0: not a MATLAB Level-5 MAT-file (header does not start with 'MATLAB 5.0 MAT-file')");
        Path h = dir.resolve("v73.mat");
        byte[] hdf = new byte[200];
        System.arraycopy(new byte[] {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'}, 0, hdf, 0, 8);
        Files.write(h, hdf);
        assertThatThrownBy(() -> MatLoader.load(h, "d", MatLoader.Options.AUTO)).hasMessageContaining("v7.3");
    }

    @Test
    void nonFiniteFeatureIsReportedWithRowAndColumn() throws Exception {
        Path p = dir.resolve("nan.mat");
        Files.write(p, new RawMatWriter().dense("X", new double[][] {{1, 2}, {3, Double.NaN}, {5, 6}})
                .dense("y", new double[][] {{1}, {2}, {1}}).bytes());
        assertThatThrownBy(() -> MatLoader.load(p, "d", MatLoader.Options.AUTO))
                .hasMessage(p + ":row 2, column 2: value NaN is not a finite number");
        Path q = dir.resolve("inf.mat");
        Files.write(q, new RawMatWriter().dense("X", new double[][] {{1, Double.POSITIVE_INFINITY}, {3, 4}})
                .dense("y", new double[][] {{1}, {2}}).bytes());
        assertThatThrownBy(() -> MatLoader.load(q, "d", MatLoader.Options.AUTO)).hasMessageContaining("row 1, column 2");
    }

    @Test
    void labelsThatDoNotMatchFeaturesAreReported() throws Exception {
        Path p = dir.resolve("mismatch.mat");
        Files.write(p, new RawMatWriter().dense("X", new double[][] {{1, 2, 3}, {3, 4, 5}})
                .dense("y", new double[][] {{1}, {2}, {1}, {2}, {1}}).bytes());
        assertThatThrownBy(() -> MatLoader.load(p, "d", new MatLoader.Options("X", "y")))
                .hasMessageContaining("do not match 5 labels");
    }

    static Matrix filled(int r, int c, double base) {
        Matrix m = Mat5.newMatrix(r, c);
        for (int i = 0; i < r; i++) {
            for (int j = 0; j < c; j++) {
                m.setDouble(i, j, base + 0.25 * ((i * 5 + j * 3) % 7));
            }
        }
        return m;
    }

    static Matrix labels(int n, int classes) {
        Matrix y = Mat5.newMatrix(n, 1, MatlabType.UInt8);
        for (int i = 0; i < n; i++) {
            y.setDouble(i, 0, 1 + i % classes);
        }
        return y;
    }

    /** The DeCAF layout: fea/gnd beside split indices that also pair up by row count; the data pair is picked. */
    @Test
    void splitIndicesBesideTheDataDoNotMakeItAmbiguous() throws Exception {
        MatFile mat = Mat5.newMatFile();
        Matrix idx = Mat5.newMatrix(8, 3);
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 3; j++) {
                idx.setDouble(i, j, 1 + (i + j) % 20);
            }
        }
        mat.addArray("fea", filled(20, 40, 0.5)).addArray("gnd", labels(20, 4))
                .addArray("source_idx", idx).addArray("source_label", labels(8, 4));
        Path p = dir.resolve("decaf_like.mat");
        Mat5.writeToFile(mat, p.toFile());
        Dataset d = MatLoader.load(p, "dom", MatLoader.Options.AUTO);
        assertThat(d.size()).isEqualTo(20);
        assertThat(d.dimension()).isEqualTo(40);
        assertThat(d.provenance().files().get(0).detail()).contains("features=fea").contains("labels=gnd");
    }

    /** Two matrices of similar size, each with labels: still ambiguous, the message names the per-role options. */
    @Test
    void twoDomainsInOneFileNeedNames() throws Exception {
        MatFile mat = Mat5.newMatFile();
        mat.addArray("X_src", filled(16, 30, 0)).addArray("Y_src", labels(30, 3))
                .addArray("X_tar", filled(16, 24, 1)).addArray("Y_tar", labels(24, 3));
        Path p = dir.resolve("jda_like.mat");
        Mat5.writeToFile(mat, p.toFile());
        assertThatThrownBy(() -> MatLoader.load(p, "dom", MatLoader.Options.AUTO))
                .hasMessageContaining("--source-features-var");
        Dataset src = MatLoader.load(p, "s", new MatLoader.Options("X_src", "Y_src"));
        Dataset tgt = MatLoader.load(p, "t", new MatLoader.Options("X_tar", "Y_tar"));
        assertThat(src.size()).isEqualTo(30);
        assertThat(tgt.size()).isEqualTo(24);
        assertThat(src.dimension()).isEqualTo(16).isEqualTo(tgt.dimension());
        // an adaptation target may lack its labels variable
        Dataset unl = MatLoader.load(p, "t", new MatLoader.Options("X_tar", "Y_missing", true));
        assertThat(unl.hasLabels()).isFalse();
        assertThatThrownBy(() -> MatLoader.load(p, "t", new MatLoader.Options("X_tar", "Y_missing", false)))
                .hasMessageContaining("no variable 'Y_missing'");
    }
}
