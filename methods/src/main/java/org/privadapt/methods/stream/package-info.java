/**
 * Releases computed from a file read in blocks of rows ({@link org.privadapt.data.io.RowChunks}): the exact statistic
 * is the compensated sum of the blocks' exact statistics, the noise step is the in-process release's own, so memory is
 * {@code O(d^2 + block)} instead of {@code O(n d)} (docs/spark.md, "Streaming on one machine").
 */
package org.privadapt.methods.stream;
