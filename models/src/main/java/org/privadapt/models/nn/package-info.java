/**
 * A small dense network engine: layers, activations, backpropagation with per-example
 * gradients, optimisers (SGD, momentum, Adam) and learning-rate schedules, shared by the non-private and the DP
 * trainers.
 */
package org.privadapt.models.nn;
