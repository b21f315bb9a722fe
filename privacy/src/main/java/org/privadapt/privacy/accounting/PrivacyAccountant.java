package org.privadapt.privacy.accounting;

import java.util.Optional;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.events.DpEvent;

/**
 * Bounds the privacy loss of a {@link DpEvent} (usually a composition) under one neighbouring relation. The
 * results are upper bounds: an accountant may over-estimate epsilon or delta, never under-estimate them.
 * An accountant that cannot analyse an event says so ({@link #unsupported}) and throws
 * {@link UnsupportedEventException} instead of guessing.
 */
public interface PrivacyAccountant {
    /** Short name: {@code rdp}, {@code pld}. */
    String name();

    NeighbouringRelation relation();

    /** Empty if the event can be analysed; otherwise why not. */
    Optional<String> unsupported(DpEvent event);

    /** The smallest epsilon this accountant can certify at {@code delta} (in (0, 1)); infinity if none. */
    double epsilon(DpEvent event, double delta);

    /** The smallest delta this accountant can certify at {@code epsilon} (>= 0). */
    double delta(DpEvent event, double epsilon);

    /** Thrown for an event (or relation) the accountant cannot analyse. */
    final class UnsupportedEventException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public UnsupportedEventException(String message) {
            super(message);
        }
    }
}
