package org.privadapt.methods.artifacts;

/**
 * An artifact (a release or a model that crossed between the parties) is unusable: malformed, of another format
 * version or kind, tampered with (checksum), from another run, or of a dimension that does not fit.
 */
public class ArtifactException extends Exception {
    private static final long serialVersionUID = 1L;

    public ArtifactException(String message) {
        super(message);
    }

    public ArtifactException(String message, Throwable cause) {
        super(message, cause);
    }
}
