package org.privadapt.data.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A benchmark suite: named domains (each with one or more splits), the files they come from, and the expected
 * shapes as documented in shared/data/MANIFEST.md.
 *
 * @param name        registry name, e.g. {@code office-caltech10}
 * @param title       one-line description
 * @param task        {@code classification} or {@code regression}
 * @param domains     the domains, in canonical order
 * @param files       data files relative to the data root
 * @param notes       how domains, labels and features are defined (shown by {@code privadapt datasets})
 * @param adaptSplit  the split of the target used (unlabelled) for adaptation
 * @param evalSplit   the split of the target used for evaluation
 * @param trainSplit  the split of the source used for training
 */
public record Suite(String name, String title, String task, List<Domain> domains, List<String> files, String notes,
                    String trainSplit, String adaptSplit, String evalSplit) {

    public Suite {
        domains = List.copyOf(domains);
        files = List.copyOf(files);
    }

    /** A domain and its splits. */
    public record Domain(String name, String shortName, List<Split> splits) {
        public Domain {
            splits = List.copyOf(splits);
        }

        public Optional<Split> split(String s) {
            return splits.stream().filter(x -> x.name().equals(s)).findFirst();
        }
    }

    /** A split with the shape MANIFEST.md documents (rows, features; -1 when it gives none). */
    public record Split(String name, int expectedRows, int expectedCols) {
    }

    /** Finds a domain by name or short name, case-insensitively. */
    public Optional<Domain> domain(String nameOrShort) {
        for (Domain d : domains) {
            if (d.name().equalsIgnoreCase(nameOrShort) || d.shortName().equalsIgnoreCase(nameOrShort)) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    /** Every ordered pair of distinct domains (source, target): 12 for four domains. */
    public List<String[]> allPairs() {
        List<String[]> pairs = new ArrayList<>();
        for (Domain s : domains) {
            for (Domain t : domains) {
                if (s != t) {
                    pairs.add(new String[] {s.name(), t.name()});
                }
            }
        }
        return pairs;
    }
}
