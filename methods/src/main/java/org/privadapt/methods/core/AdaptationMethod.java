package org.privadapt.methods.core;

import org.privadapt.data.DataException;

/** A domain-adaptation method that can be run end to end on a task (one process holding both parties' data). */
public interface AdaptationMethod {
    /** Registry name, e.g. {@code coral}. */
    String name();

    /** One line for listings. */
    String description();

    /** Whether the method gives a differential-privacy guarantee to both parties. */
    boolean isPrivate();

    AdaptationOutcome run(AdaptationTask task, MethodConfig config) throws DataException;
}
