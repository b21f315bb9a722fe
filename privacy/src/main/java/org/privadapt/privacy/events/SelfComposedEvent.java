package org.privadapt.privacy.events;

/** {@code count} adaptive repetitions of the same event (e.g. the steps of DP-SGD). */
public record SelfComposedEvent(DpEvent event, long count) implements DpEvent {
    public SelfComposedEvent {
        java.util.Objects.requireNonNull(event, "event");
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
    }

    @Override
    public String describe() {
        return count + " x " + event.describe();
    }
}
