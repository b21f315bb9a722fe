package org.privadapt.data.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.text.EncodedTextCache;
import org.privadapt.data.text.EncodingProgress;
import org.privadapt.data.text.HashedBagOfWords;
import org.privadapt.data.text.TextEncoder;
import org.privadapt.data.text.TextEncoding;
import org.privadapt.math.FeatureMatrix;

/**
 * {@link TextColumnTable}: a CSV file's text column encoded beside its numeric columns (issue 47), by the hashed bag
 * of words or a stand-in pretrained encoder with its cache; the cells and columns it refuses.
 */
class TextColumnTableTest {
    @TempDir
    Path dir;

    static final String CSV = "age,note,label\n"
            + "41,\"the heart is enlarged, cardiomegaly\",sick\n"
            + "35,lungs are clear,well\n"
            + "52,,well\n";

    Path write(String name, String text) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    static DataFiles.Options options(String label, boolean dropMissing, List<String> drop, boolean oneHot) {
        return new DataFiles.Options(null, null, label, oneHot, dropMissing, drop, null, 0, null);
    }

    static Dataset load(Path f, String column, TextEncoding enc) throws DataException {
        return TextColumnTable.load(f, "d", options(null, false, List.of(), false), column, enc);
    }

    @Test
    void theBagOfWordsFollowsTheNumericColumnsAndNothingIsReadFromTheRows() throws Exception {
        Dataset d = load(write("a.csv", CSV), "note", TextEncoding.BOW);
        assertThat(d.size()).isEqualTo(3);
        assertThat(d.dimension()).isEqualTo(1 + HashedBagOfWords.DEFAULT_BUCKETS);
        assertThat(d.features().isSparse()).isTrue();
        assertThat(d.featureNames().get(0)).isEqualTo("age");
        assertThat(d.featureNames().get(1)).isEqualTo("note[0]");
        assertThat(d.classLabels().names()).containsExactly("sick", "well");
        assertThat(d.publicFacts().schemaPublic()).isTrue(); // the text part's layout is the hash's, fixed in advance
        FeatureMatrix bow = HashedBagOfWords.standard().features(List.of("the heart is enlarged, cardiomegaly", "lungs are clear", ""));
        for (int i = 0; i < 3; i++) {
            assertThat(d.features().get(i, 0)).isEqualTo(new double[] {41, 35, 52}[i]);
            for (int j = 0; j < bow.cols(); j++) {
                assertThat(d.features().get(i, 1 + j)).isEqualTo(bow.get(i, j));
            }
        }
        // the empty field is an empty text: no words, a zero row
        assertThat(d.features().row(2)).containsOnly(0.0, 52.0);
        assertThat(TextEncoding.identity(d)).isEqualTo(TextEncoding.Identity.BOW);
        assertThat(d.provenance().files().get(0).detail()).contains("text column 'note'").contains("hashed bag of words");
    }

    @Test
    void aPretrainedEncodersFeaturesAreCachedAndEqualAFreshEncoding() throws Exception {
        Path f = write("a.csv", CSV);
        Counting enc = new Counting();
        EncodedTextCache cache = new EncodedTextCache(dir.resolve("cache"));
        TextEncoding encoding = new TextEncoding(enc, cache, EncodingProgress.NONE);
        Dataset first = load(f, "note", encoding);
        Dataset second = load(f, "note", encoding);
        assertThat(enc.calls).isEqualTo(1); // the second load read the cache
        assertThat(Files.list(cache.dir()).count()).isEqualTo(1);
        double[][] fresh = enc.encode(List.of("the heart is enlarged, cardiomegaly", "lungs are clear", ""), k -> { });
        assertThat(second.dimension()).isEqualTo(1 + 3);
        assertThat(second.features().isSparse()).isFalse();
        for (int i = 0; i < 3; i++) {
            double[] row = second.features().row(i);
            assertThat(java.util.Arrays.copyOfRange(row, 1, 4)).containsExactly(fresh[i]);
            assertThat(row).containsExactly(first.features().row(i));
        }
        assertThat(TextEncoding.identity(second)).isEqualTo(new TextEncoding.Identity("counting", enc.hash()));
    }

    @Test
    void withOnlyATextColumnTheFeaturesAreTheTexts() throws Exception {
        Dataset d = load(write("b.csv", "note,label\nheart,a\nlung,b\n"), "note", TextEncoding.BOW);
        assertThat(d.dimension()).isEqualTo(HashedBagOfWords.DEFAULT_BUCKETS);
    }

    @Test
    void aMissingTextIsRefusedWithItsPositionOrItsRowDropped() throws Exception {
        Path f = write("m.csv", "age,note,label\n41,heart,a\n35,NA,b\n52,lung,b\n");
        assertThatThrownBy(() -> load(f, "note", TextEncoding.BOW)).isInstanceOf(DataException.class)
                .hasMessageContaining("m.csv").hasMessageContaining("line 3, field 2 ('note')")
                .hasMessageContaining("missing text").hasMessageContaining("--missing drop");
        Dataset d = TextColumnTable.load(f, "d", options(null, true, List.of(), false), "note", TextEncoding.BOW);
        assertThat(d.size()).isEqualTo(2);
        assertThat(d.features().get(1, 0)).isEqualTo(52);
        assertThat(d.provenance().steps()).anyMatch(s -> s.contains("dropped (1 of 3)"));
        // a missing number beside it: the same policy, the rows stay aligned with their texts
        Path g = write("n.csv", "age,note,label\n41,heart,a\n,lung,b\n52,lung,b\n");
        assertThatThrownBy(() -> load(g, "note", TextEncoding.BOW)).hasMessageContaining("line 3, field 1 ('age')");
        assertThat(TextColumnTable.load(g, "d", options(null, true, List.of(), false), "note", TextEncoding.BOW).size()).isEqualTo(2);
    }

    @Test
    void theColumnsItCannotEncodeAreRefused() throws Exception {
        Path f = write("a.csv", CSV);
        assertThatThrownBy(() -> load(f, "notes", TextEncoding.BOW)).isInstanceOf(DataException.class)
                .hasMessageContaining("a.csv").hasMessageContaining("no column 'notes' for --text-column")
                .hasMessageContaining("did you mean 'note'");
        Path full = write("full.csv", "age,note,label\n41,heart,a\n35,lung,b\n");
        assertThatThrownBy(() -> load(full, "age", TextEncoding.BOW)).hasMessageContaining("line 2, field 1 ('age')")
                .hasMessageContaining("holds numbers only");
        assertThatThrownBy(() -> load(f, "label", TextEncoding.BOW)).hasMessageContaining("is the label column");
        assertThatThrownBy(() -> TextColumnTable.load(f, "d", options(null, false, List.of("note"), false), "note",
                TextEncoding.BOW)).hasMessageContaining("both --text-column and in --drop-columns");
        Path txt = write("a.txt", "x y\n1 2\n");
        assertThatThrownBy(() -> load(txt, "x", TextEncoding.BOW)).hasMessageContaining("CSV or TSV");
    }

    @Test
    void oneHotColumnsBesideTheTextKeepTheirSchemaReadFromTheRows() throws Exception {
        Path f = write("c.csv", "site,note,label\nnorth,heart,a\nsouth,lung,b\n");
        assertThatThrownBy(() -> load(f, "note", TextEncoding.BOW)).hasMessageContaining("categorical");
        Dataset d = TextColumnTable.load(f, "d", options(null, false, List.of(), true), "note", TextEncoding.BOW);
        assertThat(d.dimension()).isEqualTo(2 + HashedBagOfWords.DEFAULT_BUCKETS);
        assertThat(d.publicFacts().schemaPublic()).isFalse();
    }

    /** A stand-in pretrained encoder: 3 features per text (length, vowels, spaces), counting its calls. */
    static final class Counting implements TextEncoder {
        int calls;

        @Override
        public String name() {
            return "counting";
        }

        @Override
        public String model() {
            return "counts (tests)";
        }

        @Override
        public String hash() {
            return "ab".repeat(32);
        }

        @Override
        public int dimension() {
            return 3;
        }

        @Override
        public double[][] encode(List<String> texts, IntConsumer done) {
            calls++;
            List<double[]> out = new ArrayList<>();
            for (String t : texts) {
                out.add(new double[] {t.length(), t.replaceAll("[^aeiou]", "").length(), t.replaceAll("[^ ]", "").length()});
            }
            done.accept(texts.size());
            return out.toArray(double[][]::new);
        }
    }
}
