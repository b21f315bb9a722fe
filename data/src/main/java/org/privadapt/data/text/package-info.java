/**
 * Text to features: bag of words over a vocabulary ({@link org.privadapt.data.text.BagOfWords});
 * a vocabulary read from private rows is private (declared public or refused by private methods).
 */
package org.privadapt.data.text;
