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
 * The {@code landmine} suite (Xue et al., JMLR 2007): 29 radar fields, 9 features, landmine (1) vs clutter (0), about
 * 6 % positive. Every field is a domain ({@code field1..field29}: cells {@code feature{i}} / {@code label{i}} of the
 * 2006 file, whose variables are uncompressed cell arrays); the two terrains are domains too: {@code foliated} =
 * fields 1-15 stacked, {@code bare-earth} = fields 16-29. The default tasks cross the terrains (the shift the
 * folder README measures); any field pair by {@code --tasks}. Strongly imbalanced: bench and run report a balanced
 * accuracy beside accuracy.
 */
final class Landmine {
    static final String SUITE = "landmine";
    static final String FILE = "landmine/LandmineData.mat";
    static final List<String> CLASSES = List.of("clutter", "landmine");
    /** Rows per field (folder README). */
    static final int[] ROWS = {690, 690, 689, 508, 509, 509, 510, 511, 508, 509, 689, 688, 508, 510, 507,
        445, 449, 448, 449, 449, 451, 454, 447, 449, 445, 448, 448, 454, 449};
    static final int FOLIATED = 15;

    private Landmine() {
    }

    static Suite suite() {
        List<Suite.Domain> domains = new ArrayList<>();
        int foliated = 0;
        int bare = 0;
        for (int i = 0; i < ROWS.length; i++) {
            domains.add(new Suite.Domain("field" + (i + 1), "F" + (i + 1), List.of(new Suite.Split("all", ROWS[i], 9))));
            if (i < FOLIATED) {
                foliated += ROWS[i];
            } else {
                bare += ROWS[i];
            }
        }
        domains.add(new Suite.Domain("foliated", "Fol", List.of(new Suite.Split("all", foliated, 9))));
        domains.add(new Suite.Domain("bare-earth", "Bare", List.of(new Suite.Split("all", bare, 9))));
        return new Suite(SUITE, "Landmine detection (Xue et al. 2007): 29 radar fields in two terrains, 9 features, landmine "
                + "vs clutter (6 % positive)", "classification", domains, List.of(FILE), "one MAT file (2006, uncompressed "
                + "cell arrays): field i = feature{i} (n_i x 9) with label{i} (stored uint8; 0 clutter, 1 landmine); "
                + "foliated = fields 1-15 stacked (8535 rows, 446 landmines), bare-earth = fields 16-29 (6285, 458); default "
                + "tasks foliated <-> bare-earth (the terrain shift); any field pair by --tasks, e.g. F1:F16; strongly "
                + "imbalanced (3-9 % positive per field): the papers report AUC; bench and run add a balanced accuracy "
                + "beside accuracy; all target rows for adaptation and evaluation", "all", "all", "all",
                List.of("foliated->bare-earth", "bare-earth->foliated"));
    }

    static Map<String, Dataset> readAll(Path root) throws DataException {
        List<MatLoader.Request> req = new ArrayList<>();
        for (int i = 1; i <= ROWS.length; i++) {
            req.add(new MatLoader.Request(SUITE + "/field" + i, new MatLoader.Options("feature{" + i + "}", "label{" + i + "}")));
        }
        List<Dataset> fields = MatLoader.loadAll(root.resolve(FILE), req);
        Map<String, Dataset> m = new LinkedHashMap<>();
        List<Dataset> foliated = new ArrayList<>();
        List<Dataset> bare = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            Dataset f = fields.get(i);
            ClassLabels y;
            try {
                y = f.classLabels().recodeTo(List.of("0", "1")).renamed(CLASSES);
            } catch (IllegalArgumentException e) {
                throw new DataException(FILE, "variable 'label{" + (i + 1) + "}'", "labels must be 0 or 1: " + e.getMessage());
            }
            if (f.dimension() != 9) {
                throw new DataException(FILE, "variable 'feature{" + (i + 1) + "}'", "expected 9 features, found " + f.dimension()
                        + " (" + PrivateText.count(f.size()) + " rows)");
            }
            Dataset named = f.withLabels(y, "classes 0 clutter, 1 landmine");
            m.put("field" + (i + 1) + ":all", named);
            (i < FOLIATED ? foliated : bare).add(named);
        }
        m.put("foliated:all", Stacking.rows(SUITE + "/foliated", foliated, Stacking.labels(foliated.stream()
                .map(Landmine::labels).toList(), CLASSES), "stacked fields 1-15 (foliated terrain)"));
        m.put("bare-earth:all", Stacking.rows(SUITE + "/bare-earth", bare, Stacking.labels(bare.stream()
                .map(Landmine::labels).toList(), CLASSES), "stacked fields 16-29 (bare earth / desert)"));
        return m;
    }

    private static ClassLabels labels(Dataset d) {
        return (ClassLabels) d.labels().orElseThrow();
    }
}
