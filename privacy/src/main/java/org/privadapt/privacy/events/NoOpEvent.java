package org.privadapt.privacy.events;

/** A computation that reads nothing private (or releases nothing): it costs nothing. */
public record NoOpEvent() implements DpEvent {
    @Override
    public String describe() {
        return "NoOp";
    }
}
