package org.privadapt.data.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.io.Files2;

/**
 * The registry on the real files of ../shared/data, checked against MANIFEST.md (shapes, class counts,
 * hashes). Skipped, with a message, when the data directory is absent.
 */
class RegistryRealDataTest {
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
    void officeCaltechMatchesManifest() throws Exception {
        requireSuite("office-caltech10");
        Object[][] expected = {{"amazon", 958, new int[] {92, 82, 94, 99, 100, 100, 99, 100, 94, 98}},
            {"caltech", 1123, new int[] {151, 110, 100, 138, 85, 128, 133, 94, 87, 97}},
            {"dslr", 157, new int[] {12, 21, 12, 13, 10, 24, 22, 12, 8, 23}},
            {"webcam", 295, new int[] {29, 21, 31, 27, 27, 30, 43, 30, 27, 30}}};
        for (Object[] e : expected) {
            Dataset d = reg.load("office-caltech10", (String) e[0], null);
            assertThat(d.size()).isEqualTo(e[1]);
            assertThat(d.dimension()).isEqualTo(800);
            ClassLabels y = d.classLabels();
            assertThat(y.counts()).containsExactly((int[]) e[2]);
            assertThat(y.names().get(0)).isEqualTo("back_pack");
            double min = Double.MAX_VALUE;
            for (int i = 0; i < d.size(); i++) {
                for (double v : d.features().row(i)) {
                    min = Math.min(min, v);
                    assertThat(v).isEqualTo(Math.rint(v)); // raw counts
                }
            }
            assertThat(min).isGreaterThanOrEqualTo(0);
        }
        Path amazon = reg.root().resolve("office-caltech10/surf/amazon_SURF_L10.mat");
        assertThat(Files2.sha256(amazon)).isEqualTo("df32548b994e18d364c99e1f317e1fae100597259f0423a41b90f4f68187bb1f");
    }

    @Test
    void amazonReviewsMatchManifest() throws Exception {
        requireSuite("amazon-reviews");
        Object[][] expected = {{"books", 4465, 2264}, {"dvd", 3586, 1807}, {"electronics", 5681, 2857}, {"kitchen", 5945, 2954}};
        for (Object[] e : expected) {
            Dataset train = reg.load("amazon-reviews", (String) e[0], "train");
            assertThat(train.size()).isEqualTo(2000);
            assertThat(train.dimension()).isEqualTo(5000);
            assertThat(train.classLabels().counts()).containsExactly(1000, 1000);
            Dataset test = reg.load("amazon-reviews", (String) e[0], "test");
            assertThat(test.size()).isEqualTo(e[1]);
            assertThat(test.classLabels().counts()[1]).isEqualTo(e[2]);
            assertThat(test.classLabels().names()).containsExactly("negative", "positive");
        }
    }

    @Test
    void uciSuitesHaveTheDocumentedSizes() throws Exception {
        requireSuite("adult");
        int train = reg.load("adult", "male", "train").size() + reg.load("adult", "female", "train").size();
        int test = reg.load("adult", "male", "test").size() + reg.load("adult", "female", "test").size();
        assertThat(train).isEqualTo(30162); // 32561 rows minus those with '?'
        assertThat(test).isEqualTo(15060);  // 16281 rows minus those with '?'
        assertThat(reg.load("adult", "female", "test").classLabels().names()).containsExactly("<=50K", ">50K");
        requireSuite("south-german-credit");
        assertThat(reg.load("south-german-credit", "short-residence", null).size()
                + reg.load("south-german-credit", "long-residence", null).size()).isEqualTo(1000);
        assertThat(reg.load("south-german-credit", "long-residence", null).classLabels().names()).hasSize(4);
        // the credit-risk variant: the same rows and domains, the binary label (700 good, 300 bad in the whole set)
        org.privadapt.data.ClassLabels rs = reg.load("south-german-credit-risk", "short-residence", null).classLabels();
        org.privadapt.data.ClassLabels rl = reg.load("south-german-credit-risk", "long-residence", null).classLabels();
        assertThat(rs.names()).containsExactly("0", "1");
        assertThat(rs.counts()[1] + rl.counts()[1]).isEqualTo(700);
        assertThat(reg.load("south-german-credit-risk", "long-residence", null).dimension()).isEqualTo(19);
        requireSuite("speaker-accent");
        assertThat(reg.load("speaker-accent", "us-uk", null).classLabels().counts()).containsExactly(0, 0, 0, 0, 45, 165);
        requireSuite("gas-turbine-emissions");
        int gas = 0;
        for (Suite.Domain d : reg.suite("gas-turbine-emissions").domains()) {
            gas += reg.load("gas-turbine-emissions", d.name(), null).size();
        }
        assertThat(gas).isEqualTo(36733);
        requireSuite("irish-wind");
        assertThat(reg.load("irish-wind", "january", null).size()).isEqualTo(558);
        assertThat(reg.load("irish-wind", "other-months", null).size()).isEqualTo(6016);
        requireSuite("iu-chest-xray");
        assertThat(reg.load("iu-chest-xray", "reports", null).classLabels().counts()[1]).isEqualTo(1379);
    }

    @Test
    void referencesResolveAndUnknownNamesAreExplained() throws Exception {
        assertThat(reg.isRef("office-caltech10/amazon")).isTrue();
        assertThat(reg.isRef("some/file.mat")).isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> reg.suite("mnist")).hasMessageContaining("known suites: office-caltech10");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> reg.load("office-caltech10", "imagenet", null))
                .hasMessageContaining("no domain 'imagenet'");
        BenchmarkRegistry empty = BenchmarkRegistry.standard(Path.of("/nonexistent-privadapt-root"));
        assertThat(empty.present(empty.suite("adult"))).isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> empty.load("adult", "male", "train"))
                .isInstanceOf(DataException.class).hasMessageContaining("/nonexistent-privadapt-root/adult/adult.data: no such file");
    }
}
