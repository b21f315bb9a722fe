/**
 * PRIMA and PRISA (paper 000): the target's DP release of subspace second moments (random
 * subspace ensembles, forward selection, PSD shrinking) and the source's DP model trained after CORAL or SA
 * alignment with it. The two-party surface is {@link org.privadapt.methods.prima.Prima#release},
 * {@link org.privadapt.methods.prima.Prima#train} and {@link org.privadapt.methods.prima.Prima#predict}, with the
 * artifacts {@link org.privadapt.methods.prima.TargetRelease} and {@link org.privadapt.methods.prima.SourceModel}.
 * See {@code docs/privacy/prima.md}.
 */
package org.privadapt.methods.prima;
