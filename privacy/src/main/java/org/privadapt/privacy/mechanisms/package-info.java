/**
 * The additive-noise mechanisms and their calibration: Gaussian (classic and the analytic
 * calibration of Balle and Wang) and Laplace, each with its sensitivity stated ({@link
 * org.privadapt.privacy.mechanisms.Sensitivities}) and its privacy map checked at construction.
 */
package org.privadapt.privacy.mechanisms;
