package org.privadapt.data.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.Dataset;
import org.privadapt.data.MultiLabels;
import org.privadapt.data.io.TextTable;
import org.privadapt.data.text.HashedBagOfWords;

/**
 * The {@code iu-chest-xray-uda} suite: the label rule and the split on a small synthetic table, then the real file of
 * ../shared/data (skipped, with a message, when it is absent).
 */
class IuChestXrayUdaTest {
    @Test
    void labelsComeFromExactMeshMainHeadings() {
        assertThat(IuChestXrayUda.labelRow("normal")).containsExactly(0, 0, 0, 1, 0, 0, 0, 0, 0);
        assertThat(IuChestXrayUda.labelRow("Cardiomegaly/borderline;Pulmonary Artery/enlarged"))
                .containsExactly(1, 0, 0, 0, 0, 0, 0, 0, 0);
        assertThat(IuChestXrayUda.labelRow("Pulmonary Edema/mild; Fractures, Bone/ribs/left;Pleural Effusion/bilateral/small"))
                .containsExactly(0, 1, 0, 0, 0, 0, 1, 1, 0);
        assertThat(IuChestXrayUda.labelRow("Pulmonary Atelectasis/base/left;Pneumonia;Consolidation/lung;Pneumothorax"))
                .containsExactly(0, 0, 1, 0, 1, 1, 0, 0, 1);
        // related headings are not the label
        assertThat(IuChestXrayUda.labelRow("Hydropneumothorax;Pericardial Effusion;Pulmonary Edema Fluid;Opacity/lung"))
                .containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 0);
        assertThat(IuChestXrayUda.labelRow("")).containsOnly(0);
    }

    @Test
    void splitKeepsEligibleReportsAndHalvesThemDisjointly(@TempDir Path dir) throws Exception {
        StringBuilder csv = new StringBuilder("uid,MeSH,Problems,image,indication,comparison,findings,impression\n");
        for (int u = 1; u <= 21; u++) {
            String findings = u % 7 == 0 ? "" : "findings of " + u;
            String impression = u % 5 == 0 ? " " : "impression of " + u;
            csv.append(u).append(',').append(u % 2 == 0 ? "normal" : "Cardiomegaly/mild").append(",x,img,ind,none,")
                    .append(findings).append(',').append(impression).append('\n');
        }
        Path f = dir.resolve("r.csv");
        Files.writeString(f, csv);
        IuChestXrayUda.Halves h = IuChestXrayUda.split(TextTable.read(f, TextTable.Format.csv()));
        // uids 5, 7, 10, 14, 15, 20, 21 lack a section: 14 eligible
        assertThat(h.reports()).isEqualTo(21);
        assertThat(h.eligible()).isEqualTo(14);
        assertThat(h.sourceUids()).hasSize(7);
        assertThat(h.targetUids()).hasSize(7);
        Set<String> all = new HashSet<>(h.sourceUids());
        all.addAll(h.targetUids());
        assertThat(all).hasSize(14).doesNotContain("5", "7", "10", "14", "15", "20", "21");
        for (int i = 0; i < 7; i++) {
            assertThat(h.sourceFindings().get(i)).isEqualTo("findings of " + h.sourceUids().get(i));
            assertThat(h.targetImpressions().get(i)).isEqualTo("impression of " + h.targetUids().get(i));
            boolean even = Integer.parseInt(h.targetUids().get(i)) % 2 == 0;
            assertThat(h.targetLabels().row(i)).containsExactly(even ? 0 : 1, 0, 0, even ? 1 : 0, 0, 0, 0, 0, 0);
        }
        // the split is a function of the file and the public seed only
        IuChestXrayUda.Halves again = IuChestXrayUda.split(TextTable.read(f, TextTable.Format.csv()));
        assertThat(again.sourceUids()).isEqualTo(h.sourceUids());
    }

    // ---------------------------------------------------------------- real data

    static BenchmarkRegistry requireData() throws Exception {
        BenchmarkRegistry reg = BenchmarkRegistry.standard(DataRoot.resolve(null));
        assumeThat(Files.isDirectory(reg.root())).as("shared data directory %s is absent: real-data test skipped", reg.root()).isTrue();
        assumeThat(reg.present(reg.suite(IuChestXrayUda.SUITE))).as("suite %s is absent under %s: real-data test skipped",
                IuChestXrayUda.SUITE, reg.root()).isTrue();
        return reg;
    }

    @Test
    void realSuiteHasTheDocumentedShapesAndOneTask() throws Exception {
        BenchmarkRegistry reg = requireData();
        Suite s = reg.suite(IuChestXrayUda.SUITE);
        assertThat(s.taskPairs()).hasSize(1);
        assertThat(s.taskPairs().get(0)).containsExactly("findings", "impression");
        assertThat(s.notes()).contains("one institution").contains("writing-style shift").contains("1665 reports instead of 115,708");
        Dataset src = reg.load(IuChestXrayUda.SUITE, "findings", null);
        Dataset tgt = reg.load(IuChestXrayUda.SUITE, "impression", null);
        assertThat(src.size()).isEqualTo(1665);
        assertThat(tgt.size()).isEqualTo(1666);
        assertThat(src.dimension()).isEqualTo(4096);
        assertThat(tgt.dimension()).isEqualTo(4096);
        assertThat(src.features().isSparse()).isTrue();
        assertThat(src.publicFacts().schemaPublic()).isTrue(); // hashed: not read from the rows
        MultiLabels ys = (MultiLabels) src.labels().orElseThrow();
        MultiLabels yt = (MultiLabels) tgt.labels().orElseThrow();
        assertThat(ys.names()).containsExactly("cardiomegaly", "edema", "pneumothorax", "no finding", "consolidation",
                "pneumonia", "fracture", "pleural effusion", "atelectasis");
        assertThat(yt.names()).isEqualTo(ys.names());
        // prevalences: every label present on both sides; "no finding" the most common, about a third of reports
        int[] cs = ys.positiveCounts();
        int[] ct = yt.positiveCounts();
        int[] total = new int[9];
        for (int j = 0; j < 9; j++) {
            total[j] = cs[j] + ct[j];
            assertThat(cs[j]).as("source positives of " + ys.names().get(j)).isPositive();
            assertThat(ct[j]).as("target positives of " + ys.names().get(j)).isPositive();
        }
        // counts over the 3331 eligible reports, from an independent count of the CSV
        assertThat(total).containsExactly(284, 34, 15, 1195, 29, 37, 79, 116, 266);
        assertThat(cs[3] / 1665.0).isBetween(0.3, 0.42);
        assertThat(ct[3] / 1666.0).isBetween(0.3, 0.42);
        for (int i = 0; i < ys.size(); i++) {
            double norm = 0;
            for (double v : src.features().row(i)) {
                norm += v * v;
            }
            assertThat(norm).isCloseTo(1.0, org.assertj.core.api.Assertions.within(1e-9));
        }
    }

    @Test
    void realHalvesAreDisjointAndTheTargetHoldsImpressionsOnly() throws Exception {
        BenchmarkRegistry reg = requireData();
        TextTable t = TextTable.read(reg.root().resolve(IuChestXrayUda.FILE), TextTable.Format.csv());
        IuChestXrayUda.Halves h = IuChestXrayUda.split(t);
        assertThat(h.reports()).isEqualTo(3851);
        assertThat(h.eligible()).isEqualTo(3331);
        Set<String> a = new HashSet<>(h.sourceUids());
        Set<String> b = new HashSet<>(h.targetUids());
        assertThat(a).hasSize(1665);
        assertThat(b).hasSize(1666);
        Set<String> both = new HashSet<>(a);
        both.retainAll(b);
        assertThat(both).isEmpty();
        int uid = t.columnIndex("uid");
        int fi = t.columnIndex("findings");
        int im = t.columnIndex("impression");
        List<String> findingsOfB = new ArrayList<>();
        List<String> impressionsOfB = new ArrayList<>();
        java.util.Map<String, String[]> byUid = new java.util.HashMap<>();
        for (int r = 0; r < t.size(); r++) {
            byUid.put(t.row(r)[uid], t.row(r));
        }
        for (String u : h.targetUids()) {
            findingsOfB.add(byUid.get(u)[fi]);
            impressionsOfB.add(byUid.get(u)[im]);
        }
        assertThat(h.targetImpressions()).isEqualTo(impressionsOfB);
        // the loaded target is exactly the hashed impressions: no findings text reaches it
        Dataset tgt = reg.load(IuChestXrayUda.SUITE, "impression", null);
        double[] loaded = tgt.features().toDense().data();
        // Arrays.equals: AssertJ's containsExactly diffs large arrays quadratically
        assertThat(java.util.Arrays.equals(loaded, HashedBagOfWords.standard().features(impressionsOfB).toDense().data())).isTrue();
        int differ = 0;
        for (int i = 0; i < findingsOfB.size(); i++) {
            differ += findingsOfB.get(i).equals(impressionsOfB.get(i)) ? 0 : 1;
        }
        assertThat(differ).isGreaterThan(1600);
        assertThat(java.util.Arrays.equals(loaded, HashedBagOfWords.standard().features(findingsOfB).toDense().data())).isFalse();
        // the source is the findings of half A
        List<String> findingsOfA = new ArrayList<>();
        for (String u : h.sourceUids()) {
            findingsOfA.add(byUid.get(u)[fi]);
        }
        assertThat(h.sourceFindings()).isEqualTo(findingsOfA);
    }
}
