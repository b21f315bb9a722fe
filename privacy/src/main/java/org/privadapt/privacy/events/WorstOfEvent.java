package org.privadapt.privacy.events;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A release whose privacy loss is that of at most one of its parts, for any one record: either the records are split
 * into disjoint parts by a data-independent random assignment and each part feeds one of the events (parallel
 * composition), or exactly one of the events runs, chosen independently of the data. The differing record then
 * reaches one part; the output distribution is a mixture, over that record's assignment (or the choice), of outputs
 * in which only one part differs, with the same weights on both neighbours. Rényi divergence is jointly
 * quasi-convex and the hockey-stick divergence jointly convex, so each is bounded by the worst part's: the RDP curve
 * is the pointwise maximum of the parts' curves, and an (epsilon, delta) that every part satisfies holds for the whole
 * (docs/privacy/selection.md).
 *
 * <p>Not a composition: parts that read the same records must be composed ({@link ComposedEvent}) instead.
 */
public record WorstOfEvent(List<DpEvent> parts) implements DpEvent {
    public WorstOfEvent {
        if (parts == null || parts.isEmpty()) {
            throw new IllegalArgumentException("a worst-of event needs at least one part");
        }
        parts = List.copyOf(parts);
    }

    public static WorstOfEvent of(DpEvent... parts) {
        return new WorstOfEvent(List.of(parts));
    }

    @Override
    public String describe() {
        return "WorstOf(" + parts.stream().map(DpEvent::describe).collect(Collectors.joining(", ")) + ")";
    }
}
