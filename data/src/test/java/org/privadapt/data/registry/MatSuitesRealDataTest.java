package org.privadapt.data.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.io.Files2;
import org.privadapt.data.io.MatLoader;

/**
 * The five MAT suites of issue 44 (reuters-21578-da, 20newsgroups-da, mtfs3-vggm, landmine, ecml2006-spam-taskb) on
 * the real files of ../shared/data, checked against MANIFEST.md and the folder READMEs (shapes, class counts, hashes,
 * sparse storage). Skipped, with a message, when the data directory or a suite's files are absent.
 */
class MatSuitesRealDataTest {
    static BenchmarkRegistry reg;

    @BeforeAll
    static void open() {
        reg = BenchmarkRegistry.standard(DataRoot.resolve(null));
    }

    void requireSuite(String name) throws DataException {
        assumeThat(Files.isDirectory(reg.root())).as("shared data directory %s is absent: real-data test skipped", reg.root()).isTrue();
        assumeThat(reg.present(reg.suite(name))).as("suite %s is absent under %s: real-data test skipped", name, reg.root()).isTrue();
    }

    @Test
    void reutersProblemsInBothDirections() throws Exception {
        requireSuite("reuters-21578-da");
        Object[][] expected = {{"org-people-src", 1237, 4771, 649, 79751}, {"org-people-tgt", 1208, 4771, 621, 85547},
            {"org-place-src", 1016, 4415, 588, 72561}, {"org-place-tgt", 1043, 4415, 587, 84231},
            {"people-place-src", 1077, 4562, 649, 68497}, {"people-place-tgt", 1077, 4562, 621, 82099}};
        for (Object[] e : expected) {
            Dataset d = reg.load("reuters-21578-da", (String) e[0], null);
            assertThat(d.size()).as((String) e[0]).isEqualTo(e[1]);
            assertThat(d.dimension()).isEqualTo(e[2]);
            assertThat(d.features().isSparse()).isTrue();
            assertThat(d.features().storedEntries()).isEqualTo(((Integer) e[4]).longValue());
            assertThat(d.classLabels().names()).containsExactly("-1", "1");
            assertThat(d.classLabels().counts()[0]).isEqualTo(e[3]);
        }
        assertThat(reg.suite("reuters-21578-da").taskPairs()).hasSize(6);
        assertThat(Files2.sha256(reg.root().resolve("reuters-21578-da/org_vs_people_1.mat")))
                .isEqualTo("b1b15606db6587bfc29865823a56f0488f74d6cbf38c661afab963a9a81a9f6b");
    }

    @Test
    void newsgroupsPairsSplitTheirSubCategories() throws Exception {
        requireSuite("20newsgroups-da");
        Dataset src = reg.load("20newsgroups-da", "comp-vs-rec-12", null);
        Dataset tgt = reg.load("20newsgroups-da", "CR34", null);
        assertThat(src.size()).isEqualTo(3913); // the folder README's example
        assertThat(tgt.size()).isEqualTo(3925);
        assertThat(src.dimension()).isEqualTo(25804);
        assertThat(src.features().isSparse()).isTrue();
        assertThat(src.classLabels().names()).containsExactly("comp", "rec");
        assertThat(src.classLabels().counts()).containsExactly(970 + 963, 987 + 993);
        assertThat(tgt.classLabels().counts()).containsExactly(979 + 958, 991 + 997);
        assertThat(src.provenance().files()).hasSize(4); // comp X1, X2 and rec X1, X2
        assertThat(src.provenance().files().stream().map(f -> f.path()).distinct()).hasSize(2);
        Dataset talk = reg.load("20newsgroups-da", "sci-vs-talk-34", null);
        assertThat(talk.classLabels().counts()).containsExactly(987 + 985, 774 + 627);
        assertThat(reg.suite("20newsgroups-da").domains()).hasSize(12);
        assertThat(reg.suite("20newsgroups-da").taskPairs()).hasSize(6);
    }

    @Test
    void mtfs3CellsStackIntoOneImagePerRow() throws Exception {
        requireSuite("mtfs3-vggm");
        for (Suite.Domain dom : reg.suite("mtfs3-vggm").domains()) {
            Dataset d = reg.load("mtfs3-vggm", dom.name(), null);
            assertThat(d.size()).isEqualTo(150);
            assertThat(d.dimension()).isEqualTo(4096);
            ClassLabels y = d.classLabels();
            assertThat(y.counts()).containsExactly(50, 50, 50);
            assertThat(y.names()).containsExactly("non-flowering", "partially-flowering", "fully-flowering");
        }
        // row 51 is features{2}{1}: the first image of class 2, read on its own
        Path f = reg.root().resolve("mtfs3-vggm/MTFS3_Gucheng2014_VGG-M_features_FC.mat");
        Dataset one = MatLoader.load(f, "x", new MatLoader.Options("features{2}{1}", null)
                .withOrientation(MatLoader.Orientation.COLUMNS));
        assertThat(one.size()).isEqualTo(1); // a 4096 x 1 column: one observation
        assertThat(reg.load("mtfs3-vggm", "G14", null).features().row(50)).containsExactly(one.features().row(0));
        assertThat(reg.suite("mtfs3-vggm").taskPairs()).hasSize(6);
    }

    @Test
    void landmineFieldsAndTerrainsFromUncompressedCells() throws Exception {
        requireSuite("landmine");
        Path f = reg.root().resolve(Landmine.FILE);
        byte[] b = Files.readAllBytes(f);
        assertThat(ByteBuffer.wrap(b, 128, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()).as("miMATRIX, uncompressed").isEqualTo(14);
        int[] positives = {40, 48, 39, 19, 22, 29, 29, 26, 31, 15, 38, 35, 27, 31, 17,
            32, 27, 31, 30, 37, 33, 39, 17, 41, 31, 36, 36, 26, 42};
        int total = 0;
        for (int i = 0; i < 29; i++) {
            Dataset d = reg.load("landmine", "field" + (i + 1), null);
            assertThat(d.size()).isEqualTo(Landmine.ROWS[i]);
            assertThat(d.dimension()).isEqualTo(9);
            assertThat(d.classLabels().counts()[1]).as("field %d", i + 1).isEqualTo(positives[i]);
            total += d.size();
        }
        assertThat(total).isEqualTo(14820);
        Dataset fol = reg.load("landmine", "foliated", null);
        Dataset bare = reg.load("landmine", "bare-earth", null);
        assertThat(fol.classLabels().counts()).containsExactly(8535 - 446, 446);
        assertThat(bare.classLabels().counts()).containsExactly(6285 - 458, 458);
        assertThat(bare.features().row(0)).containsExactly(reg.load("landmine", "field16", null).features().row(0));
        assertThat(reg.suite("landmine").taskPairs()).extracting(p -> p[0] + "->" + p[1])
                .containsExactly("foliated->bare-earth", "bare-earth->foliated");
    }

    @Test
    void spamInboxesStaySparse() throws Exception {
        requireSuite("ecml2006-spam-taskb");
        int[] nnz = {64116, 70993, 79747, 54422, 39293, 89458, 53040, 67957, 60417, 61244, 52848, 61104, 53730, 68005, 46510};
        for (int u = 1; u <= 15; u++) {
            Dataset d = reg.load("ecml2006-spam-taskb", "user" + u, null);
            assertThat(d.size()).isEqualTo(400);
            assertThat(d.dimension()).isEqualTo(152543);
            assertThat(d.features().isSparse()).isTrue();
            assertThat(d.features().storedEntries()).isEqualTo(nnz[u - 1]);
            assertThat(d.classLabels().counts()).containsExactly(200, 200);
        }
        assertThat(reg.suite("ecml2006-spam-taskb").taskPairs()).hasSize(15);
        assertThat(reg.suite("ecml2006-spam-taskb").taskPairs().get(14)).containsExactly("user15", "user1");
    }
}
