package org.privadapt.methods.gmmuda;

/**
 * The target's rows are encoded by another text encoder than the one the source's release was trained on
 * ({@link SourceReleaseArtifact#requireEncoder}): nothing can be adapted, and nothing was read past the rows' encoding.
 */
public final class EncoderMismatchException extends Exception {
    private static final long serialVersionUID = 1L;

    public EncoderMismatchException(String message) {
        super(message);
    }
}
