package org.privadapt.data.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.Dataset;
import org.privadapt.data.MultiLabels;

/** The content-hash cache of encoded texts and the encoder's identity carried by a dataset. */
class EncodedTextCacheTest {
    @TempDir
    Path dir;

    /** A stand-in encoder: three features per text from its length and first letter; counts its calls. */
    static final class CountingEncoder implements TextEncoder {
        final List<Integer> calls = new ArrayList<>();
        final String hash;

        CountingEncoder(String hash) {
            this.hash = hash;
        }

        @Override
        public String name() {
            return "counting";
        }

        @Override
        public String model() {
            return "length and first letter";
        }

        @Override
        public String hash() {
            return hash;
        }

        @Override
        public int dimension() {
            return 3;
        }

        @Override
        public double[][] encode(List<String> texts, IntConsumer done) {
            calls.add(texts.size());
            double[][] x = new double[texts.size()][];
            for (int i = 0; i < x.length; i++) {
                String t = texts.get(i);
                x[i] = new double[] {t.length(), t.isEmpty() ? 0 : t.charAt(0), 1.0 / 3};
            }
            done.accept(texts.size());
            return x;
        }
    }

    static final String H1 = "a".repeat(64);
    static final String H2 = "b".repeat(64);

    @Test
    void theSameTextsUnderTheSameModelAreReadBackAndAnyChangeMisses() {
        EncodedTextCache c = new EncodedTextCache(dir.resolve("encoded"));
        CountingEncoder e = new CountingEncoder(H1);
        List<String> texts = List.of("heart size normal", "", "effusion");
        double[][] first = c.encode(e, texts, k -> { });
        int[] told = new int[1];
        double[][] again = c.encode(e, texts, k -> told[0] = k);
        assertThat(e.calls).containsExactly(3);
        assertThat(told[0]).isEqualTo(3);
        assertThat(again).isDeepEqualTo(first);
        c.encode(e, List.of("heart size normal", "", "effusion."), k -> { }); // one character more
        c.encode(e, List.of("heart size normal", "effusion"), k -> { }); // a text fewer
        assertThat(e.calls).containsExactly(3, 3, 2);
        CountingEncoder other = new CountingEncoder(H2); // another model's weights
        c.encode(other, texts, k -> { });
        assertThat(other.calls).containsExactly(3);
        // the boundaries between texts count: ["ab", "c"] is not ["a", "bc"]
        assertThat(EncodedTextCache.key(H1, List.of("ab", "c"))).isNotEqualTo(EncodedTextCache.key(H1, List.of("a", "bc")));
    }

    @Test
    void aDamagedEntryIsEncodedAgain() throws Exception {
        EncodedTextCache c = new EncodedTextCache(dir.resolve("encoded"));
        CountingEncoder e = new CountingEncoder(H1);
        List<String> texts = List.of("one", "two");
        double[][] first = c.encode(e, texts, k -> { });
        Path f = c.entry(e, texts);
        byte[] b = Files.readAllBytes(f);
        Files.write(f, java.util.Arrays.copyOf(b, b.length - 5));
        assertThat(c.encode(e, texts, k -> { })).isDeepEqualTo(first);
        assertThat(e.calls).containsExactly(2, 2);
        try (var files = Files.list(c.dir())) {
            assertThat(files.map(p -> p.getFileName().toString())).allMatch(n -> n.endsWith(".f64")); // no temporary left
        }
    }

    @Test
    void aDatasetNamesTheEncoderThatMadeItsFeatures() {
        CountingEncoder e = new CountingEncoder(H1);
        TextEncoding enc = new TextEncoding(e, new EncodedTextCache(dir), EncodingProgress.NONE);
        MultiLabels y = new MultiLabels(new int[][] {{1}, {0}}, List.of("normal"));
        Dataset d = enc.transform(List.of("clear lungs", "effusion"), "t", y, Path.of("r.csv"), "0".repeat(64), "column 'x'", "x");
        assertThat(d.dimension()).isEqualTo(3);
        assertThat(d.features().get(0, 0)).isEqualTo(11.0);
        assertThat(TextEncoding.identity(d)).isEqualTo(new TextEncoding.Identity("counting", H1)).isEqualTo(enc.identity());
        Dataset bow = TextEncoding.BOW.transform(List.of("clear lungs", "effusion"), "t", y, Path.of("r.csv"), "0".repeat(64),
                "column 'x'", "x");
        assertThat(bow.dimension()).isEqualTo(HashedBagOfWords.DEFAULT_BUCKETS);
        assertThat(TextEncoding.identity(bow)).isEqualTo(TextEncoding.Identity.BOW);
    }

    @Test
    void theBagOfWordsIsBuiltInAndAnUnknownEncoderIsOneLine() {
        assertThat(TextEncoders.find(null)).isNull();
        assertThat(TextEncoders.find(" BOW ")).isNull();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TextEncoders.find("nosuch"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("encoder=nosuch")
                .hasMessageNotContaining("\n");
    }
}
