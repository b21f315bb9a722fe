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
 * The {@code ecml2006-spam-taskb} suite: ECML/PKDD 2006 Discovery Challenge task B, 15 users' inboxes as domains,
 * 400 e-mails each as word counts over a 152,543-entry dictionary (cells {@code X{u}}, MATLAB sparse n x d, kept
 * sparse) with labels {@code Y{u}} 0/1 (200 each; which is spam is undocumented). The default tasks are a ring,
 * user u -> user u+1 (user 15 -> user 1): each user once as source and once as target; any pair by {@code --tasks}.
 */
final class SpamTaskB {
    static final String SUITE = "ecml2006-spam-taskb";
    static final String FILE = "ecml2006-spam-taskb/emails.mat";
    static final int USERS = 15;
    static final int DICTIONARY = 152543;

    private SpamTaskB() {
    }

    static Suite suite() {
        List<Suite.Domain> domains = new ArrayList<>();
        List<String> tasks = new ArrayList<>();
        for (int u = 1; u <= USERS; u++) {
            domains.add(new Suite.Domain("user" + u, "U" + u, List.of(new Suite.Split("all", 400, DICTIONARY))));
            tasks.add("user" + u + "->user" + (u % USERS + 1));
        }
        return new Suite(SUITE, "ECML/PKDD 2006 spam filtering task B: 15 user inboxes, 152,543-word sparse counts, binary",
                "classification", domains, List.of(FILE), "one MAT file: user u = X{u} (400 x 152543 MATLAB sparse, one row "
                + "per e-mail, integer term counts, kept sparse) with Y{u} (stored uint8, 0/1, 200 each; which code is spam is "
                + "not documented, consistent across users); no word list; default tasks a ring user u -> user u+1 (15 -> 1), "
                + "our choice (no published pair list); any of the 210 pairs by --tasks; the challenge ranked by AUC, classes "
                + "balanced so accuracy is reported; all target rows for adaptation and evaluation", "all", "all", "all", tasks);
    }

    static Map<String, Dataset> readAll(Path root) throws DataException {
        List<MatLoader.Request> req = new ArrayList<>();
        for (int u = 1; u <= USERS; u++) {
            req.add(new MatLoader.Request(SUITE + "/user" + u, new MatLoader.Options("X{" + u + "}", "Y{" + u + "}")
                    .withOrientation(MatLoader.Orientation.ROWS)));
        }
        List<Dataset> users = MatLoader.loadAll(root.resolve(FILE), req);
        Map<String, Dataset> m = new LinkedHashMap<>();
        for (int u = 1; u <= USERS; u++) {
            Dataset d = users.get(u - 1);
            ClassLabels y;
            try {
                y = d.classLabels().recodeTo(List.of("0", "1"));
            } catch (IllegalArgumentException e) {
                throw new DataException(FILE, "variable 'Y{" + u + "}'", "labels must be 0 or 1: " + e.getMessage());
            }
            if (d.dimension() != DICTIONARY || !d.features().isSparse()) {
                throw new DataException(FILE, "variable 'X{" + u + "}'", "expected sparse e-mails x " + DICTIONARY
                        + " words, found " + PrivateText.count(d.size()) + " x " + d.dimension());
            }
            m.put("user" + u + ":all", d.withLabels(y, "classes 0, 1"));
        }
        return m;
    }
}
