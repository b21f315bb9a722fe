package org.privadapt.data.registry;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.io.MatLoader;

/**
 * The {@code 20newsgroups-da} suite: the 20 Newsgroups top categories comp, rec, sci and talk, one MAT file each with
 * its four newsgroups in {@code X1..X4} (MATLAB sparse, 25,804 x n, one column per document, alphabetical order of
 * the newsgroups). A problem "A vs B" labels a document by its top category; its two domains split each category's
 * newsgroups: {@code A-vs-B-12} = newsgroups 1 and 2 of A and of B, {@code A-vs-B-34} = newsgroups 3 and 4 (the
 * split (1,2 | 3,4) of the 36 the literature averages over). Six pairs, 12 domains; the default tasks are the six
 * {@code -12 -> -34}; the reverse ones by {@code --tasks}.
 */
final class NewsgroupsDa {
    static final String SUITE = "20newsgroups-da";
    static final String DIR = "20newsgroups-da/";
    static final int VOCABULARY = 25804;
    /** Top categories, their short letters and their newsgroups' document counts (X1..X4). */
    static final String[] CATEGORIES = {"comp", "rec", "sci", "talk"};
    static final String[] LETTERS = {"C", "R", "S", "T"};
    static final int[][] COUNTS = {{970, 963, 979, 958}, {987, 993, 991, 997}, {989, 984, 987, 985}, {909, 940, 774, 627}};

    private NewsgroupsDa() {
    }

    static Suite suite() {
        List<Suite.Domain> domains = new ArrayList<>();
        List<String> files = new ArrayList<>();
        List<String> tasks = new ArrayList<>();
        for (String c : CATEGORIES) {
            files.add(DIR + c + ".mat");
        }
        for (int a = 0; a < 4; a++) {
            for (int b = a + 1; b < 4; b++) {
                String pair = CATEGORIES[a] + "-vs-" + CATEGORIES[b];
                String sh = LETTERS[a] + LETTERS[b];
                int first = COUNTS[a][0] + COUNTS[a][1] + COUNTS[b][0] + COUNTS[b][1];
                int second = COUNTS[a][2] + COUNTS[a][3] + COUNTS[b][2] + COUNTS[b][3];
                domains.add(new Suite.Domain(pair + "-12", sh + "12", List.of(new Suite.Split("all", first, VOCABULARY))));
                domains.add(new Suite.Domain(pair + "-34", sh + "34", List.of(new Suite.Split("all", second, VOCABULARY))));
                tasks.add(pair + "-12->" + pair + "-34");
            }
        }
        return new Suite(SUITE, "20 Newsgroups cross-domain text (Dai et al. 2007): top category A vs B, sub-categories "
                + "shift, 25,804-word sparse tf-idf-like weights, binary", "classification", domains, files,
                "one MAT file per top category (comp, rec, sci, talk) with its newsgroups X1..X4 in alphabetical order "
                + "(names inferred from the counts; folder README), MATLAB sparse 25804 x n, read transposed and kept sparse; "
                + "a problem A vs B (6 pairs) has label = top category (classes named A, B); domain A-vs-B-12 = newsgroups 1, "
                + "2 of A and of B, A-vs-B-34 = newsgroups 3, 4 (one fixed split of the 36 the papers average over); the "
                + "default tasks are the six -12 -> -34, the reverse by --tasks; one shared vocabulary; unsupervised "
                + "protocol: all target rows for adaptation and evaluation, target accuracy", "all", "all", "all", tasks);
    }

    static Map<String, Dataset> readAll(Path root) throws DataException {
        // the 16 newsgroups, each read once
        Dataset[][] groups = new Dataset[4][];
        for (int c = 0; c < 4; c++) {
            String rel = DIR + CATEGORIES[c] + ".mat";
            List<MatLoader.Request> req = new ArrayList<>();
            for (int g = 1; g <= 4; g++) {
                req.add(new MatLoader.Request(SUITE + "/" + CATEGORIES[c] + ".X" + g, new MatLoader.Options("X" + g, null)
                        .withOrientation(MatLoader.Orientation.COLUMNS)));
            }
            groups[c] = MatLoader.loadAll(root.resolve(rel), req).toArray(new Dataset[0]);
            for (Dataset g : groups[c]) {
                if (g.dimension() != VOCABULARY) {
                    throw new DataException(rel, null, "expected " + VOCABULARY + " terms, found " + g.dimension());
                }
            }
        }
        Map<String, Dataset> m = new LinkedHashMap<>();
        for (int a = 0; a < 4; a++) {
            for (int b = a + 1; b < 4; b++) {
                String pair = CATEGORIES[a] + "-vs-" + CATEGORIES[b];
                List<String> names = List.of(CATEGORIES[a], CATEGORIES[b]);
                for (int[] half : new int[][] {{0, 1}, {2, 3}}) {
                    String dom = pair + "-" + (half[0] + 1) + (half[1] + 1);
                    List<Dataset> parts = List.of(groups[a][half[0]], groups[a][half[1]], groups[b][half[0]], groups[b][half[1]]);
                    int na = parts.get(0).size() + parts.get(1).size();
                    int nb = parts.get(2).size() + parts.get(3).size();
                    int[] codes = new int[na + nb];
                    java.util.Arrays.fill(codes, na, na + nb, 1);
                    m.put(dom + ":all", Stacking.rows(SUITE + "/" + dom, parts, new org.privadapt.data.ClassLabels(codes, names),
                            "stacked " + CATEGORIES[a] + ".X" + (half[0] + 1) + ", " + CATEGORIES[a] + ".X" + (half[1] + 1) + " (label "
                            + CATEGORIES[a] + ") and " + CATEGORIES[b] + ".X" + (half[0] + 1) + ", " + CATEGORIES[b] + ".X"
                            + (half[1] + 1) + " (label " + CATEGORIES[b] + ")"));
                }
            }
        }
        return m;
    }
}
