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
 * @param task        {@code classification}, {@code regression} or {@code multi-label classification}
 * @param domains     the domains, in canonical order
 * @param files       data files relative to the data root
 * @param notes       how domains, labels and features are defined (shown by {@code privadapt datasets})
 * @param adaptSplit  the split of the target used (unlabelled) for adaptation
 * @param evalSplit   the split of the target used for evaluation
 * @param trainSplit  the split of the source used for training
 * @param fixedTasks  the suite's tasks as {@code source->target} domain names when only those make sense; empty for
 *                    every ordered pair of domains ({@link #taskPairs()})
 */
public record Suite(String name, String title, String task, List<Domain> domains, List<String> files, String notes,
                    String trainSplit, String adaptSplit, String evalSplit, List<String> fixedTasks) {

    public Suite {
        domains = List.copyOf(domains);
        files = List.copyOf(files);
        fixedTasks = List.copyOf(fixedTasks);
    }

    /** A suite whose tasks are every ordered pair of its domains. */
    public Suite(String name, String title, String task, List<Domain> domains, List<String> files, String notes,
                 String trainSplit, String adaptSplit, String evalSplit) {
        this(name, title, task, domains, files, notes, trainSplit, adaptSplit, evalSplit, List.of());
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

    /** The suite's tasks (source, target): its fixed tasks if it declares some, else {@link #allPairs()}. */
    public List<String[]> taskPairs() {
        if (fixedTasks.isEmpty()) {
            return allPairs();
        }
        List<String[]> pairs = new ArrayList<>();
        for (String t : fixedTasks) {
            pairs.add(t.split("->", 2));
        }
        return pairs;
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
