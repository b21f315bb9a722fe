package org.privadapt.data.registry;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.MultiLabels;
import org.privadapt.data.PrivateText;
import org.privadapt.data.io.TextTable;
import org.privadapt.data.text.HashedBagOfWords;
import org.privadapt.data.text.TextEncoding;

/**
 * The {@code iu-chest-xray-uda} suite: paper 004's multi-label clinical-text adaptation (MIMIC-CXR -> IU X-ray)
 * rebuilt inside the IU X-ray reports, since MIMIC-CXR is not available.
 *
 * <ul>
 *   <li><b>Eligible reports</b>: those of {@code indiana_reports.csv} whose {@code findings} and {@code impression}
 *       are both non-blank (3331 of 3851).</li>
 *   <li><b>Split</b>: the eligible uids in increasing numeric order are shuffled by a Fisher-Yates shuffle driven by
 *       {@code new SplittableRandom(}{@value #SEED}{@code )} (a public constant); the first floor(m/2) form half A
 *       (1665), the rest half B (1666). Each half is then listed in increasing uid order.</li>
 *   <li><b>Domains</b>: {@code findings} = the FINDINGS text of half A with its labels (the source);
 *       {@code impression} = the IMPRESSION text of half B with its labels (the target; its labels are meant for
 *       evaluation only). No report appears on both sides and the target holds no findings text.</li>
 *   <li><b>Labels</b> ({@link #LABELS}, the paper's order): from the {@code MeSH} field, split at {@code ;}; each
 *       entry's main heading is the text before its first {@code /}, trimmed and compared case-insensitively and
 *       exactly (no substring match) with: {@code normal} -> no finding; {@code Cardiomegaly} -> cardiomegaly;
 *       {@code Edema} or {@code Pulmonary Edema} -> edema; {@code Pneumothorax} -> pneumothorax; {@code Consolidation}
 *       -> consolidation; {@code Pneumonia} -> pneumonia; {@code Fractures, Bone} -> fracture; {@code Pleural
 *       Effusion} -> pleural effusion; {@code Pulmonary Atelectasis} -> atelectasis. Other headings (e.g.
 *       {@code Hydropneumothorax}, {@code Pericardial Effusion}) map to nothing. In this file the {@code Problems}
 *       field lists exactly the MeSH main headings of every report, so reading either gives the same labels.</li>
 *   <li><b>Features</b>: {@link HashedBagOfWords#standard()} (2^12 buckets, unigrams, log(1 + tf), L2 rows):
 *       nothing, not even a vocabulary, is read from the rows; or, with {@code --param encoder=NAME}
 *       ({@link TextEncoding}), a frozen public pretrained encoder's features of each text (paper 004's design:
 *       {@code minilm}, 384 features), equally row-local and public.</li>
 * </ul>
 */
public final class IuChestXrayUda {
    /** The suite's name. */
    public static final String SUITE = "iu-chest-xray-uda";
    /** The reports file, relative to the data root. */
    public static final String FILE = "iu-chest-xray/indiana_reports.csv";
    /** The public seed of the split into halves. */
    public static final long SEED = 20220004L;
    /** The nine labels, in the order of paper 004's tables. */
    public static final List<String> LABELS = List.of("cardiomegaly", "edema", "pneumothorax", "no finding",
            "consolidation", "pneumonia", "fracture", "pleural effusion", "atelectasis");
    /** MeSH main heading (lower case) -> label. */
    static final Map<String, String> HEADINGS = Map.of("normal", "no finding", "cardiomegaly", "cardiomegaly",
            "edema", "edema", "pulmonary edema", "edema", "pneumothorax", "pneumothorax", "consolidation", "consolidation",
            "pneumonia", "pneumonia", "fractures, bone", "fracture", "pleural effusion", "pleural effusion",
            "pulmonary atelectasis", "atelectasis");
    /** Rows of the two domains on the published file. */
    static final int SOURCE_ROWS = 1665;
    static final int TARGET_ROWS = 1666;

    private IuChestXrayUda() {
    }

    /** The suite's description. */
    static Suite suite() {
        List<Suite.Domain> domains = List.of(
                new Suite.Domain("findings", "F", List.of(new Suite.Split("all", SOURCE_ROWS, HashedBagOfWords.DEFAULT_BUCKETS))),
                new Suite.Domain("impression", "I", List.of(new Suite.Split("all", TARGET_ROWS, HashedBagOfWords.DEFAULT_BUCKETS))));
        return new Suite(SUITE, "IU chest X-ray reports as paper 004's multi-label task: FINDINGS of half A -> IMPRESSION of "
                + "half B, 9 labels, hashed bag of words", "multi-label classification", domains, List.of(FILE),
                "stand-in for paper 004's MIMIC-CXR -> IU X-ray: reports with non-empty findings and impression (3331 of "
                + "3851) split by uid into disjoint halves (SplittableRandom seed " + SEED + "); source = FINDINGS of half A "
                + "(" + SOURCE_ROWS + " reports), target = IMPRESSION of half B (" + TARGET_ROWS + " reports, labels for "
                + "evaluation only). Differs from the paper: one institution (not MIMIC -> Open-i), so the shift is a "
                + "writing-style shift (findings vs impression sections), and the source has " + SOURCE_ROWS + " reports instead of "
                + "115,708; features are " + HashedBagOfWords.standard().describe() + " (no BERT). Labels: 9 binary labels "
                + LABELS + " from the MeSH main headings (before '/'): normal -> no finding, Cardiomegaly, Edema or "
                + "Pulmonary Edema -> edema, Pneumothorax, Consolidation, Pneumonia, 'Fractures, Bone' -> fracture, "
                + "Pleural Effusion, Pulmonary Atelectasis -> atelectasis (exact heading match)", "all", "all", "all",
                List.of("findings->impression"));
    }

    /** The two halves as read from the reports table. */
    public record Halves(int reports, int eligible, List<String> sourceUids, List<String> sourceFindings,
                         MultiLabels sourceLabels, List<String> targetUids, List<String> targetImpressions,
                         MultiLabels targetLabels) {
    }

    /** The 0/1 label row of one MeSH field. */
    public static int[] labelRow(String mesh) {
        int[] y = new int[LABELS.size()];
        for (String entry : mesh.split(";")) {
            int slash = entry.indexOf('/');
            String heading = (slash < 0 ? entry : entry.substring(0, slash)).trim().toLowerCase(Locale.ROOT);
            String label = HEADINGS.get(heading);
            if (label != null) {
                y[LABELS.indexOf(label)] = 1;
            }
        }
        return y;
    }

    /**
     * Splits the reports table into the two halves.
     *
     * @throws DataException when a column is missing or a uid is repeated or not a number
     */
    public static Halves split(TextTable t) throws DataException {
        int uidCol = t.columnIndex("uid");
        int meshCol = t.columnIndex("MeSH");
        int fi = t.columnIndex("findings");
        int im = t.columnIndex("impression");
        record Report(long uid, String id, String findings, String impression, int[] y) {
        }
        List<Report> eligible = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int r = 0; r < t.size(); r++) {
            String[] row = t.row(r);
            String id = row[uidCol].trim();
            if (!seen.add(id)) {
                throw new DataException(t.file(), "line " + PrivateText.row(t.line(r)), "uid " + PrivateText.value(id) + " repeated");
            }
            long uid;
            try {
                uid = Long.parseLong(id);
            } catch (NumberFormatException e) {
                throw new DataException(t.file(), "line " + PrivateText.row(t.line(r)), "uid " + PrivateText.quoted(id) + " is not a number");
            }
            if (!row[fi].isBlank() && !row[im].isBlank()) {
                eligible.add(new Report(uid, id, row[fi], row[im], labelRow(row[meshCol])));
            }
        }
        eligible.sort((a, b) -> Long.compare(a.uid(), b.uid()));
        SplittableRandom rng = new SplittableRandom(SEED);
        for (int i = eligible.size() - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            Report tmp = eligible.get(i);
            eligible.set(i, eligible.get(j));
            eligible.set(j, tmp);
        }
        int half = eligible.size() / 2;
        List<Report> a = new ArrayList<>(eligible.subList(0, half));
        List<Report> b = new ArrayList<>(eligible.subList(half, eligible.size()));
        a.sort((x, z) -> Long.compare(x.uid(), z.uid()));
        b.sort((x, z) -> Long.compare(x.uid(), z.uid()));
        return new Halves(t.size(), eligible.size(), a.stream().map(Report::id).toList(), a.stream().map(Report::findings).toList(),
                new MultiLabels(a.stream().map(Report::y).toArray(int[][]::new), LABELS), b.stream().map(Report::id).toList(),
                b.stream().map(Report::impression).toList(), new MultiLabels(b.stream().map(Report::y).toArray(int[][]::new), LABELS));
    }

    /** Reads both domains (keys {@code findings:all}, {@code impression:all}) with the hashed bag of words. */
    static Map<String, Dataset> readAll(Path root) throws DataException {
        return readAll(root, TextEncoding.BOW);
    }

    /** Reads both domains, their texts encoded by {@code f}. */
    static Map<String, Dataset> readAll(Path root, TextEncoding f) throws DataException {
        TextTable t = TextTable.read(root.resolve(FILE), TextTable.Format.csv());
        Halves h = split(t);
        Map<String, Dataset> m = new LinkedHashMap<>();
        String why = "eligible reports (non-empty findings and impression: " + h.eligible() + " of " + h.reports()
                + ") split by uid with seed " + SEED;
        m.put("findings:all", f.transform(h.sourceFindings(), SUITE + "/findings:all", h.sourceLabels(), t.file(),
                t.hashes().get(0), "column 'findings' of half A (" + h.sourceUids().size() + " reports), labels from 'MeSH'", "findings")
                .withLabels(h.sourceLabels(), why + "; half A, labels = 9 MeSH headings"));
        m.put("impression:all", f.transform(h.targetImpressions(), SUITE + "/impression:all", h.targetLabels(), t.file(),
                t.hashes().get(0), "column 'impression' of half B (" + h.targetUids().size() + " reports), labels from 'MeSH'", "impressions")
                .withLabels(h.targetLabels(), why + "; half B, labels = 9 MeSH headings (for evaluation only)"));
        return m;
    }
}
