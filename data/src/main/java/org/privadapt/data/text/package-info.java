/**
 * Text to features: bag of words over a vocabulary ({@link org.privadapt.data.text.BagOfWords});
 * a vocabulary read from private rows is private (declared public or refused by private methods).
 * {@link org.privadapt.data.text.HashedBagOfWords} hashes words into a fixed number of buckets instead, so its
 * layout is public by construction and nothing is fitted on the rows.
 */
package org.privadapt.data.text;
