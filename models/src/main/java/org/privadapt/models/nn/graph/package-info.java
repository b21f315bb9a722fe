/**
 * The network engine's modules: dense layers (trainable or frozen), stacks of them with dropout, CDAN's multilinear
 * map, the encoder-classifier composition ({@code EncoderClassifier}), and per-example gradients of any composition
 * factorised per dense layer ({@code PerExample}), so DP-SGD clips jointly over any chosen set of parameters without
 * a loop over examples.
 */
package org.privadapt.models.nn.graph;
