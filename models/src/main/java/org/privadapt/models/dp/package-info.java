/**
 * DP-SGD ({@link org.privadapt.models.dp.DpSgdTrainer}): Poisson sampling, per-example
 * gradients factorised per dense layer (no loop over examples), joint clipping, Gaussian noise from the party's
 * noise source, a public normaliser; the run's DP event is known before it starts.
 * {@link org.privadapt.models.dp.StackDpSgdTrainer} does the same for an encoder stack and a classifier stack trained
 * jointly (frozen layers, softmax or multi-label sigmoid {@link org.privadapt.models.dp.Targets}), with a non-private
 * mode for baselines. See {@code docs/privacy/dp-sgd.md}.
 */
package org.privadapt.models.dp;
