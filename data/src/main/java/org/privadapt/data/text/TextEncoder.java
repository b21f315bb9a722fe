package org.privadapt.data.text;

import java.util.List;
import java.util.function.IntConsumer;

/**
 * A frozen, public, pretrained text encoder: a row-local public map from one text to a fixed-length vector. Nothing
 * is fitted on the rows; the map is fixed by the encoder's published weights and tokenizer, named by {@link #name()}
 * and identified by {@link #hash()} (what a release records, so that a target encoding with another model is refused).
 *
 * <p>Implementations live outside the core modules (the {@code encoders} module runs ONNX Runtime) and are found by
 * {@link java.util.ServiceLoader} through {@link TextEncoders#find}; no core module depends on them.
 */
public interface TextEncoder {

    /** The name asked for with {@code --param encoder=NAME}, e.g. {@code minilm}. */
    String name();

    /** The model it runs, in words (e.g. "sentence-transformers/all-MiniLM-L6-v2, quantised ONNX, mean pooling"). */
    String model();

    /** SHA-256 (hex) of the weights and tokenizer files: the encoder's identity. */
    String hash();

    /** The length of every feature vector. */
    int dimension();

    /**
     * The features of the texts, one row each, in order; each row depends on its own text only.
     *
     * @param done told the number of texts encoded so far, now and then (for a progress bar); may be a no-op
     */
    double[][] encode(List<String> texts, IntConsumer done);
}
