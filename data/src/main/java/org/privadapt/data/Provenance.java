package org.privadapt.data;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a dataset came from and what was done to it: the files read (with SHA-256, format and the variables or
 * columns used) and, in order, every transformation applied since, each described with what it was fitted on.
 * Immutable; the {@code with...} methods return extended copies.
 */
public record Provenance(List<SourceFile> files, List<String> steps) {

    public Provenance {
        files = List.copyOf(files);
        steps = List.copyOf(steps);
    }

    public static Provenance of(SourceFile file) {
        return new Provenance(List.of(file), List.of());
    }

    public static Provenance generated(String description) {
        return new Provenance(List.of(), List.of("generated: " + description));
    }

    public Provenance withStep(String step) {
        List<String> s = new ArrayList<>(steps);
        s.add(step);
        return new Provenance(files, s);
    }

    /** One file that was read. */
    public record SourceFile(String path, String sha256, String format, String detail) {
    }
}
