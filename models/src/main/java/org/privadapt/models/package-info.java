/**
 * Classifiers: multinomial logistic regression trained by L-BFGS, the
 * {@link org.privadapt.models.Classifier} interface, softmax and evaluation measures
 * ({@link org.privadapt.models.Metrics}, including the chance-level check).
 */
package org.privadapt.models;
