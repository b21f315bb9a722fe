package org.privadapt.methods.artifacts;

/**
 * A key file ({@link ArtifactKeys}) that cannot be used: missing or unreadable, not a privadapt key file (malformed),
 * or the other half of the pair (a public key where the private key is needed, or the reverse). The message names
 * the file and is one line.
 */
public class KeyFileException extends Exception {
    private static final long serialVersionUID = 1L;

    /** What is wrong, so that a command can map it to its exit code. */
    public enum Reason {
        /** The file is not there, is a directory or cannot be read. */
        MISSING,
        /** The file is there but is not a valid privadapt Ed25519 key file. */
        MALFORMED,
        /** A valid key file of the other kind (public for private, private for public). */
        WRONG_KIND
    }

    private final Reason reason;
    private final java.nio.file.Path file;
    private final String problem;

    /** The message is "FILE: PROBLEM". */
    public KeyFileException(Reason reason, java.nio.file.Path file, String problem) {
        this(reason, file, problem, null);
    }

    public KeyFileException(Reason reason, java.nio.file.Path file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.reason = reason;
        this.file = file;
        this.problem = problem;
    }

    public Reason reason() {
        return reason;
    }

    /** The key file. */
    public java.nio.file.Path file() {
        return file;
    }

    /** What is wrong, without the file's name. */
    public String problem() {
        return problem;
    }
}
