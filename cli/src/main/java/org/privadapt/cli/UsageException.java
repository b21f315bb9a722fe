package org.privadapt.cli;

/** A command-line argument has an invalid value; reported in one line with exit code {@link ExitCodes#USAGE}. */
public class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }

    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
