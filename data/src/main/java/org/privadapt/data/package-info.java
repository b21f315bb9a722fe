/**
 * Datasets: features with optional labels (classes or real targets), where they came from
 * ({@link org.privadapt.data.Provenance}: files with SHA-256, every step applied) and what their holder declares
 * public about them ({@link org.privadapt.data.PublicFacts}: size, class set, schema). Bad input raises
 * {@link org.privadapt.data.DataException}, which names the file and the position.
 */
package org.privadapt.data;
