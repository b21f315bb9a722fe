package org.privadapt.data.registry;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.PrivateText;
import org.privadapt.data.io.MatLoader;

/**
 * The {@code reuters-21578-da} suite: the three Reuters-21578 cross-domain text problems of Dai et al. (KDD 2007),
 * orgs vs people, orgs vs places and people vs places, one MAT file each holding both domains ({@code Xs/Ys} and
 * {@code Xt/Yt}, MATLAB sparse, one column per document). Each problem has its own vocabulary, so a task pairs the
 * two domains of one problem: 3 problems in both directions, 6 tasks.
 */
final class ReutersDa {
    static final String SUITE = "reuters-21578-da";
    static final String DIR = "reuters-21578-da/";

    /** file stem, long name, short name, source rows, target rows, vocabulary. */
    static final String[][] PROBLEMS = {
        {"org_vs_people_1", "org-people", "OP", "1237", "1208", "4771"},
        {"org_vs_place_1", "org-place", "OL", "1016", "1043", "4415"},
        {"people_vs_place_1", "people-place", "PL", "1077", "1077", "4562"}};

    private ReutersDa() {
    }

    static Suite suite() {
        List<Suite.Domain> domains = new ArrayList<>();
        List<String> files = new ArrayList<>();
        List<String> tasks = new ArrayList<>();
        for (String[] p : PROBLEMS) {
            int d = Integer.parseInt(p[5]);
            domains.add(new Suite.Domain(p[1] + "-src", p[2] + "s", List.of(new Suite.Split("all", Integer.parseInt(p[3]), d))));
            domains.add(new Suite.Domain(p[1] + "-tgt", p[2] + "t", List.of(new Suite.Split("all", Integer.parseInt(p[4]), d))));
            files.add(DIR + p[0] + ".mat");
            tasks.add(p[1] + "-src->" + p[1] + "-tgt");
            tasks.add(p[1] + "-tgt->" + p[1] + "-src");
        }
        return new Suite(SUITE, "Reuters-21578 cross-domain text (Dai et al. 2007): orgs vs people, orgs vs places, people vs "
                + "places, sparse tf-idf-like term weights, binary", "classification", domains, files,
                "one MAT file per problem with both domains: Xs/Ys the -src domain, Xt/Yt the -tgt domain (the origin's *_2.mat "
                + "are these with the roles swapped, so the reverse tasks are -tgt -> -src); MATLAB sparse d x n (one column per "
                + "document), read transposed and kept sparse; each problem has its own vocabulary (4771 / 4415 / 4562 terms), "
                + "so the 6 tasks are the 3 problems in both directions; labels -1/+1 as stored (meaning inferred from the "
                + "class counts, not stated: org-people +1 = orgs, org-place -1 = orgs, people-place -1 = people); classes "
                + "roughly balanced; unsupervised protocol: all target rows for adaptation and evaluation, target accuracy",
                "all", "all", "all", tasks);
    }

    static Map<String, Dataset> readAll(Path root) throws DataException {
        Map<String, Dataset> m = new LinkedHashMap<>();
        for (String[] p : PROBLEMS) {
            String rel = DIR + p[0] + ".mat";
            MatLoader.Options src = new MatLoader.Options("Xs", "Ys").withOrientation(MatLoader.Orientation.COLUMNS);
            MatLoader.Options tgt = new MatLoader.Options("Xt", "Yt").withOrientation(MatLoader.Orientation.COLUMNS);
            List<Dataset> both = MatLoader.loadAll(root.resolve(rel), List.of(
                    new MatLoader.Request(SUITE + "/" + p[1] + "-src", src), new MatLoader.Request(SUITE + "/" + p[1] + "-tgt", tgt)));
            String[] sides = {"-src", "-tgt"};
            for (int k = 0; k < 2; k++) {
                Dataset ds = both.get(k);
                ClassLabels y = ds.classLabels();
                if (y.numClasses() != 2 || ds.dimension() != Integer.parseInt(p[5])) {
                    throw new DataException(rel, null, "expected " + p[5] + " terms and labels -1/+1, found "
                            + ds.dimension() + " terms and " + PrivateText.count(y.numClasses()) + " classes");
                }
                m.put(p[1] + sides[k] + ":all", ds.withLabels(y.recodeTo(List.of("-1", "1")), "classes -1, 1"));
            }
        }
        return m;
    }
}
