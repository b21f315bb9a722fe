package org.privadapt.privacy.noise;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicBoolean;

/** A one-line message printed at most once by this object (once per process when held in a static field). */
final class OnceWarning {
    private final String message;
    private final AtomicBoolean emitted = new AtomicBoolean();

    OnceWarning(String message) {
        this.message = message;
    }

    String message() {
        return message;
    }

    /** Prints the message to {@code out} unless it was printed before; true if it printed now. */
    boolean emit(PrintStream out) {
        if (emitted.compareAndSet(false, true)) {
            out.println(message);
            out.flush();
            return true;
        }
        return false;
    }
}
