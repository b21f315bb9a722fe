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
 * The {@code mtfs3-vggm} suite: LDADA's maize tassel flowering status benchmark (Lu et al., IEEE TIP 2018), six
 * field sites as domains, VGG-M fc6 features (4,096-d), three classes, 150 images each. Each file holds the features
 * as a cell of classes of cells of 4096 x 1 images and the labels as a cell of per-class vectors; both are read as
 * their cells stacked (features{1}{1..50}, features{2}{...}, features{3}{...}).
 */
final class Mtfs3Vggm {
    static final String SUITE = "mtfs3-vggm";
    static final String DIR = "mtfs3-vggm/";
    static final List<String> CLASSES = List.of("non-flowering", "partially-flowering", "fully-flowering");
    /** domain, short name, file's domain part. */
    static final String[][] DOMAINS = {{"gucheng2014", "G14", "Gucheng2014"}, {"taian2011-1", "T11", "Taian2011_1"},
        {"taian2012-1", "T12a", "Taian2012_1"}, {"taian2012-2", "T12b", "Taian2012_2"},
        {"zhengzhou2011", "Z11", "Zhengzhou2011"}, {"zhengzhou2012", "Z12", "Zhengzhou2012"}};
    /** LDADA's six tasks (batchMTFS3.m). */
    static final List<String> TASKS = List.of("zhengzhou2012->taian2012-2", "gucheng2014->taian2012-2",
            "taian2011-1->zhengzhou2011", "zhengzhou2011->taian2012-2", "taian2011-1->zhengzhou2012", "gucheng2014->taian2011-1");

    private Mtfs3Vggm() {
    }

    static String file(String[] d) {
        return DIR + "MTFS3_" + d[2] + "_VGG-M_features_FC.mat";
    }

    static Suite suite() {
        List<Suite.Domain> domains = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (String[] d : DOMAINS) {
            domains.add(new Suite.Domain(d[0], d[1], List.of(new Suite.Split("all", 150, 4096))));
            files.add(file(d));
        }
        return new Suite(SUITE, "MTFS3 maize tassel flowering (LDADA, Lu et al. 2018), VGG-M fc6 features (4096-dim), 6 field "
                + "sites, 3 classes", "classification", domains, files, "one MAT file per field site: 'features' a cell of 3 "
                + "classes of cells of 50 single 4096 x 1 images, 'labels' a cell of 3 vectors (stored uint8), both read as "
                + "their cells stacked in order (150 x 4096); classes 1 non-flowering, 2 partially-flowering, 3 "
                + "fully-flowering, 50 each; non-negative post-ReLU activations, ~60 % zeros, kept dense; the 6 tasks of "
                + "LDADA's batchMTFS3.m (Taian2012_1 is in none of them; any pair by --tasks); LDADA's full protocol: all "
                + "source images labelled, all target images for adaptation and evaluation, target accuracy",
                "all", "all", "all", TASKS);
    }

    static Map<String, Dataset> readAll(Path root) throws DataException {
        Map<String, Dataset> m = new LinkedHashMap<>();
        for (String[] d : DOMAINS) {
            String rel = file(d);
            Dataset ds = MatLoader.load(root.resolve(rel), SUITE + "/" + d[0], new MatLoader.Options("features", "labels"));
            ClassLabels y = ds.classLabels();
            if (ds.size() != 150 || ds.dimension() != 4096 || !y.names().equals(List.of("1", "2", "3"))) {
                throw new DataException(rel, null, "expected 150 images x 4096 features in classes 1, 2, 3, found "
                        + PrivateText.count(ds.size()) + " x " + ds.dimension() + " in " + PrivateText.value(y.names()));
            }
            // labels{c} holds c: the stacked labels must follow the class cells the features were stacked from
            for (int i = 0; i < ds.size(); i++) {
                if (y.code(i) != i / 50) {
                    throw new DataException(rel, "variable 'labels', element " + PrivateText.row(i + 1), "label "
                            + PrivateText.value(y.names().get(y.code(i))) + " is not the class of its cell (" + (i / 50 + 1) + ")");
                }
            }
            m.put(d[0] + ":all", ds.withLabels(y.renamed(CLASSES), "classes named (1 non-, 2 partially-, 3 fully-flowering)"));
        }
        return m;
    }
}
