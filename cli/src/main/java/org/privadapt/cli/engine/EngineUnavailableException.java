package org.privadapt.cli.engine;

/** The engine asked for cannot run in this JVM (exit code 6, {@link org.privadapt.cli.ExitCodes#ENGINE}). */
public final class EngineUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EngineUnavailableException(String message) {
        super(message);
    }

    public EngineUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
