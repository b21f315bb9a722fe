package org.privadapt.privacy.events;

/**
 * A computation without a privacy guarantee (e.g. a non-private baseline, or anything run with seeded noise):
 * every accountant reports epsilon = infinity for a composition that contains it.
 */
public record NonPrivateEvent(String reason) implements DpEvent {
    @Override
    public String describe() {
        return "NonPrivate(" + reason + ")";
    }
}
