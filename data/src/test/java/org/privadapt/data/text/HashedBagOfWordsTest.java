package org.privadapt.data.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.privadapt.data.Dataset;
import org.privadapt.math.CsrMatrix;

class HashedBagOfWordsTest {
    @Test
    void hashIsFnv1aThenFmix64() {
        // FNV-1a 64 of the empty string is the offset basis; fmix64 of it, computed by hand from the definition
        long h = 0xcbf29ce484222325L;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        assertThat(HashedBagOfWords.hash64("")).isEqualTo(h);
        // FNV-1a 64 of "a" is the published test vector 0xaf63dc4c8601ec8c, before the finaliser
        long a = (0xcbf29ce484222325L ^ 'a') * 0x100000001b3L;
        assertThat(a).isEqualTo(0xaf63dc4c8601ec8cL);
        long fa = a;
        fa ^= fa >>> 33;
        fa *= 0xff51afd7ed558ccdL;
        fa ^= fa >>> 33;
        fa *= 0xc4ceb9fe1a85ec53L;
        fa ^= fa >>> 33;
        assertThat(HashedBagOfWords.hash64("a")).isEqualTo(fa);
    }

    @Test
    void isDeterministicAcrossInstancesAndPinned() {
        HashedBagOfWords f = HashedBagOfWords.standard();
        // pinned values: a change of hash or bucketing would silently change every feature, so it must fail here
        int cardio = f.bucket("cardiomegaly");
        assertThat(new HashedBagOfWords(4096, true, true).bucket("cardiomegaly")).isEqualTo(cardio);
        // literal values, checked against an independent implementation of the same definition
        assertThat(HashedBagOfWords.hash64("cardiomegaly")).isEqualTo(4792035423514214697L);
        assertThat(cardio).isEqualTo(297);
        assertThat(f.bucket("effusion")).isEqualTo(1053);
        List<String> docs = List.of("No acute cardiopulmonary abnormality.", "Mild cardiomegaly. Small left pleural effusion.");
        CsrMatrix x1 = f.features(docs);
        CsrMatrix x2 = HashedBagOfWords.standard().features(docs);
        assertThat(java.util.Arrays.equals(x1.toDense().data(), x2.toDense().data())).isTrue();
        assertThat(HashedBagOfWords.hash64("effusion")).isEqualTo(HashedBagOfWords.hash64(new String("effusion")));
    }

    @Test
    void valuesAreLogOnePlusCountsThenRowNormalised() {
        // choose a bucket count where the three words fall in distinct buckets
        int d = 1 << 20;
        HashedBagOfWords f = new HashedBagOfWords(d, false, false);
        int bx = f.bucket("lung");
        int by = f.bucket("clear");
        int bz = f.bucket("xxxx");
        assertThat(bx).isNotEqualTo(by);
        TreeMap<Integer, Double> row = f.row("Lung LUNG lung, clear; XXXX x 12");
        assertThat(row.keySet()).containsExactlyInAnyOrder(bx, by); // xxxx, single letters and digits are not tokens
        assertThat(row).doesNotContainKey(bz == bx || bz == by ? -1 : bz);
        double vx = Math.log(4);
        double vy = Math.log(2);
        double norm = Math.sqrt(vx * vx + vy * vy);
        assertThat(row.get(bx)).isCloseTo(vx / norm, within(1e-12));
        assertThat(row.get(by)).isCloseTo(vy / norm, within(1e-12));
    }

    @Test
    void everyNonEmptyRowHasUnitNormAndEmptyRowsStayZero() {
        HashedBagOfWords f = new HashedBagOfWords(64, true, true);
        List<String> docs = List.of("the heart is normal in size the lungs are clear", "", "1234 ...", "effusion effusion effusion");
        CsrMatrix x = f.features(docs);
        assertThat(x.rows()).isEqualTo(4);
        assertThat(x.cols()).isEqualTo(64);
        for (int i = 0; i < 4; i++) {
            double s = 0;
            for (double v : x.row(i)) {
                s += v * v;
            }
            assertThat(s).isCloseTo(i == 1 || i == 2 ? 0 : 1, within(1e-12));
        }
        // one distinct key (unsigned count 3, or its sign) -> a single entry of magnitude 1
        CsrMatrix one = new HashedBagOfWords(64, false, true).features(List.of("effusion effusion effusion"));
        assertThat(one.rowEnd(0) - one.rowStart(0)).isEqualTo(1);
        assertThat(Math.abs(one.valueAt(0))).isEqualTo(1.0);
        assertThat(Math.signum(one.valueAt(0))).isEqualTo((double) new HashedBagOfWords(64, false, true).sign("effusion"));
    }

    @Test
    void bigramsAddAdjacentPairKeys() {
        int d = 1 << 20;
        HashedBagOfWords uni = new HashedBagOfWords(d, false, false);
        HashedBagOfWords bi = new HashedBagOfWords(d, true, false);
        Map<Integer, Double> u = uni.row("pleural effusion");
        Map<Integer, Double> b = bi.row("pleural effusion");
        assertThat(u).hasSize(2);
        assertThat(b).hasSize(3).containsKey(bi.bucket("pleural effusion"));
    }

    @Test
    void theDatasetIsSparseWithAPublicLayout() {
        Dataset ds = HashedBagOfWords.standard().transform(List.of("a lung", "clear lungs"), "t", null, Path.of("f.csv"),
                "00", "column 'x'");
        assertThat(ds.features().isSparse()).isTrue();
        assertThat(ds.dimension()).isEqualTo(HashedBagOfWords.DEFAULT_BUCKETS);
        assertThat(ds.publicFacts().schemaFromRows()).isFalse();
        assertThat(ds.provenance().files().get(0).detail()).contains("4096 buckets").contains("nothing fitted");
        assertThatThrownBy(() -> new HashedBagOfWords(0, false, false)).isInstanceOf(IllegalArgumentException.class);
    }
}
