package org.privadapt.privacy.events;

import java.util.List;

/** Adaptive sequential composition of several events, in order. */
public record ComposedEvent(List<DpEvent> events) implements DpEvent {
    public ComposedEvent {
        events = List.copyOf(events);
    }

    public static ComposedEvent of(DpEvent... events) {
        return new ComposedEvent(List.of(events));
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder("Composed[");
        for (int i = 0; i < events.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(events.get(i).describe());
        }
        return sb.append(']').toString();
    }
}
