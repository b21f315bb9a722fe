/**
 * Frozen public pretrained text encoders on ONNX Runtime, found through {@link java.util.ServiceLoader} as
 * {@link org.privadapt.data.text.TextEncoder}s ({@code --param encoder=NAME}): {@link org.privadapt.encoders.MiniLm}
 * ({@code encoder=minilm}, paper 004's design). No core module depends on this one; its jar carries the CLI and is what
 * the launcher runs when an encoder other than the bag of words is asked for.
 */
package org.privadapt.encoders;
