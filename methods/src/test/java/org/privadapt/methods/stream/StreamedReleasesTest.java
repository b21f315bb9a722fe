package org.privadapt.methods.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.io.DataFiles;
import org.privadapt.data.io.RowChunks;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.SecondMoments;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.models.dp.ClassStatistics;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The streamed releases against the load-everything ones on the same file: with the same seeded noise the ncm and lda
 * class statistics, PRIMA's noisy target moments (single, random and forward-selected partitions, both relations) and
 * the release artifact's numbers are equal to 1e-9 relative (to each block's largest entry), for blocks of 1 row, a
 * few rows, and more rows than the file has; the same events are charged; a bad row anywhere refuses before the charge.
 */
class StreamedReleasesTest {
    static final double REL = 1e-9;
    static double worst;
    static final int N = 157;
    static final int D = 9;
    static final int[] CHUNKS = {1, 6, 64, N + 3};

    @TempDir
    static Path dir;

    @AfterAll
    static void report() {
        System.out.println("privadapt-stream: largest relative difference, streamed vs load-everything: " + worst);
    }

    /** Rows from 0.1 to 10 times the scale (some clipped), one zero row, three classes. */
    static Path csv(String name) throws Exception {
        SplittableRandom rng = new SplittableRandom(5);
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < D; j++) {
            sb.append("x").append(j).append(',');
        }
        sb.append("label\n");
        for (int i = 0; i < N; i++) {
            double scale = i == 7 ? 0 : Math.pow(10, rng.nextDouble(-1, 1));
            for (int j = 0; j < D; j++) {
                sb.append(Double.toString(scale * (rng.nextGaussian() + (i % 3) * 0.5 * (j % 2)))).append(',');
            }
            sb.append(new String[] {"c", "a", "b"}[i % 3]).append('\n');
        }
        Path p = dir.resolve(name);
        Files.writeString(p, sb.toString());
        return p;
    }

    static void assertClose(double[] actual, double[] expected, String what) {
        assertThat(actual).as(what).hasSize(expected.length);
        double scale = 1;
        for (double v : expected) {
            scale = Math.max(scale, Math.abs(v));
        }
        for (int i = 0; i < actual.length; i++) {
            double diff = Math.abs(actual[i] - expected[i]);
            if (!Double.isNaN(expected[i]) || !Double.isNaN(actual[i])) {
                worst = Math.max(worst, diff / scale);
                assertThat(diff).as(what + " entry " + i + ": " + actual[i] + " vs " + expected[i]).isLessThanOrEqualTo(REL * scale);
            }
        }
    }

    static void assertSame(ClassStatistics s, ClassStatistics l, String what) {
        assertClose(s.counts(), l.counts(), what + " counts");
        assertClose(s.sums().data(), l.sums().data(), what + " sums");
        if (l.moment() == null) {
            assertThat(s.moment()).isNull();
        } else {
            assertClose(s.moment().data(), l.moment().data(), what + " moment");
        }
    }

    @Test
    void theClassStatisticsEqualTheLoadEverythingOnesOnTheSameSeededNoise() throws Exception {
        Path p = csv("classes.csv");
        for (String pre : List.of("none", "l2,scale=3")) {
            Preprocessing steps = Preprocessing.parse(pre);
            Dataset whole = steps.fitAndApply(DataFiles.load(p, "classes", DataFiles.Options.DEFAULT));
            ClassLabels y = (ClassLabels) whole.labels().orElseThrow();
            List<String> classes = y.names();
            RowChunks rows = RowChunks.open(p, "classes", DataFiles.Options.DEFAULT);
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                PrivateLearners.Plan ncm = plan("ncm", rel, classes.size());
                PrivateLearners.Plan lda = plan("lda", rel, classes.size());
                ClassStatistics ncmLocal = PrivateLearners.ncmRelease(ncm, whole.features(), y.codes(), classes.size(),
                        new SessionRandomness(NoiseSource.seeded(7)));
                ClassStatistics ldaLocal = PrivateLearners.ldaRelease(lda, whole.features(), y.codes(), classes.size(),
                        new SessionRandomness(NoiseSource.seeded(8)));
                for (int chunk : CHUNKS) {
                    String what = pre + " " + rel + " chunk " + chunk;
                    ClassStatistics ncmExact = StreamedStatistics.ncmExact(rows, steps, chunk, classes);
                    assertSame(ncmExact, PrivateLearners.ncmExact(whole.features(), y.codes(), classes.size()), "ncm exact " + what);
                    assertSame(PrivateLearners.ncmNoise(ncm, ncmExact, new SessionRandomness(NoiseSource.seeded(7))), ncmLocal, "ncm " + what);
                    ClassStatistics ldaExact = StreamedStatistics.ldaExact(lda, rows, steps, chunk, classes);
                    assertSame(ldaExact, PrivateLearners.ldaExact(lda, whole.features(), y.codes(), classes.size()), "lda exact " + what);
                    assertSame(PrivateLearners.ldaNoise(lda, ldaExact, new SessionRandomness(NoiseSource.seeded(8))), ldaLocal, "lda " + what);
                }
            }
        }
        RowChunks rows = RowChunks.open(p, "classes", DataFiles.Options.DEFAULT);
        assertThatThrownBy(() -> StreamedStatistics.ncmExact(rows, Preprocessing.none(), 10, List.of("a", "b")))
                .isInstanceOf(DataException.class).hasMessageContaining("label 'c' is not one of the classes [a, b]");
        // issue 46.4: with messages redacted, neither the label nor its row number appears; the rule and the classes do
        try (org.privadapt.data.PrivateText.Scope s = org.privadapt.data.PrivateText.redact(true)) {
            RowChunks again = RowChunks.open(p, "classes", DataFiles.Options.DEFAULT);
            assertThatThrownBy(() -> StreamedStatistics.ncmExact(again, Preprocessing.none(), 10, List.of("a", "b")))
                    .isInstanceOf(DataException.class)
                    .hasMessageContaining("row <redacted>: label <redacted> is not one of the classes [a, b]")
                    .hasMessageNotContaining("'c'");
        }
    }

    static PrivateLearners.Plan plan(String learner, NeighbouringRelation rel, int k) {
        MethodConfig c = new MethodConfig("lr", 0, 1, Map.of("learner", learner, "learner-row-bound", "2.0"));
        return PrivateLearners.plan(c, N, D, k, 1.0, 1e-5, rel, null, 1);
    }

    static PrimaConfig config(PrimaConfig.Partitioning p) {
        PrimaConfig base = PrimaConfig.prima(PrimaConfig.Adaptation.CORAL).with(p, true);
        return PrimaConfig.from(base, new MethodConfig("lr", 0, 1, Map.of("block-size", "4", "max-block", "5", "row-bound", "3.0")));
    }

    static PrivacySession session(NeighbouringRelation rel) {
        return new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), rel, NoiseSource.seeded(31), null);
    }

    static void assertSame(SecondMoments s, SecondMoments l, String what) {
        assertThat(s.partition().blocks()).as(what + " partition").usingRecursiveComparison().isEqualTo(l.partition().blocks());
        assertClose(new double[] {s.count()}, new double[] {l.count()}, what + " count");
        assertClose(s.sums(), l.sums(), what + " sums");
        for (int b = 0; b < l.partition().size(); b++) {
            assertClose(s.blockGrams().get(b).data(), l.blockGrams().get(b).data(), what + " block " + b);
        }
        assertThat(s.noiseStd()).as(what + " noise").isEqualTo(l.noiseStd());
    }

    @Test
    void theTargetMomentsAndReleaseEqualTheLoadEverythingOnesOnTheSameSeededNoise() throws Exception {
        Path p = csv("target.csv");
        DataFiles.Options target = new DataFiles.Options(null, null, null, false, false, List.of(), null, 0, null, true);
        Preprocessing steps = Preprocessing.parse("l2,scale=3");
        Dataset whole = steps.fitAndApply(DataFiles.load(p, "target", target)).withoutLabels();
        RowChunks rows = RowChunks.open(p, "target", target);
        for (PrimaConfig.Partitioning part : PrimaConfig.Partitioning.values()) {
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                PrimaConfig cfg = config(part);
                PrivacySession inProcess = session(rel);
                TargetRelease local = Prima.release(whole, cfg, steps.spec(), "prima", 1L, "run-1", inProcess);
                for (int chunk : CHUNKS) {
                    String what = part + " " + rel + " chunk " + chunk;
                    PrivacySession streamed = session(rel);
                    StreamedMoments source = new StreamedMoments(rows, steps, chunk, cfg);
                    RowChunks.Summary s = source.prepare(1L);
                    assertThat(s.rows()).isEqualTo(N);
                    assertThat(source.passes()).isEqualTo(1);
                    Prima.NoisyMoments noisy = Prima.noisyMoments(source, cfg, "prima", 1L, streamed);
                    assertThat(source.passes()).as(what + " passes").isEqualTo(part == PrimaConfig.Partitioning.FORWARD ? 2 : 1);
                    assertSame(noisy.moments(), Prima.noisyMoments(whole, cfg, "prima", 1L, session(rel)).moments(), what);
                    TargetRelease r = Prima.release(noisy, cfg, steps.spec(), "prima", "run-1", streamed);
                    assertThat(r.partition().blocks()).usingRecursiveComparison().isEqualTo(local.partition().blocks());
                    assertClose(r.mean(), local.mean(), what + " mean");
                    assertClose(r.sd(), local.sd(), what + " sd");
                    for (int b = 0; b < local.blocks().size(); b++) {
                        assertClose(r.blocks().get(b).data(), local.blocks().get(b).data(), what + " released block " + b);
                    }
                    assertThat(streamed.spent()).isEqualTo(inProcess.spent());
                    assertThat(r.privacy().toString()).isEqualTo(local.privacy().toString());
                }
            }
        }
    }

    @Test
    void aBadRowInALateBlockRefusesBeforeAnythingIsCharged() throws Exception {
        Path p = csv("bad.csv");
        List<String> lines = Files.readAllLines(p);
        lines.set(150, lines.get(150).replaceFirst("^[^,]*,", "oops,"));
        Files.write(p, lines);
        DataFiles.Options target = new DataFiles.Options(null, null, null, false, false, List.of(), null, 0, null, true);
        String expected;
        try {
            DataFiles.load(p, "bad", target);
            throw new AssertionError("the loader accepted it");
        } catch (DataException e) {
            expected = e.getMessage();
        }
        assertThat(expected).contains("line 151");
        StreamedMoments source = new StreamedMoments(RowChunks.open(p, "bad", target), Preprocessing.none(), 8,
                config(PrimaConfig.Partitioning.SINGLE));
        assertThatThrownBy(() -> source.prepare(1L)).isInstanceOf(DataException.class).hasMessage(expected);
        assertThat(String.format(Locale.ROOT, "%d", source.passes())).isEqualTo("0");
    }
}
