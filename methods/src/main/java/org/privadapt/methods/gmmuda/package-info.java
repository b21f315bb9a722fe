/**
 * Paper 004 (An et al. 2022): source-private adaptation through a DP model of source features. The source releases
 * a DP-SGD encoder + classifier and a DP-EM Gaussian mixture of its features ({@link org.privadapt.methods.gmmuda.SourceRelease});
 * the target adapts its encoder against samples of the mixture (DANN/CDAN), with KD and IM losses, at no cost to the
 * source ({@link org.privadapt.methods.gmmuda.GmmUdaMethod}). Privacy: docs/privacy/dp-em.md and docs/privacy/gmm-uda.md.
 */
package org.privadapt.methods.gmmuda;
