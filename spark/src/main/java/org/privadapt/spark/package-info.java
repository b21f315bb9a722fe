/**
 * The releases that are sums over rows of clipped per-row functions, on Apache Spark (issue 31, docs/spark.md): the
 * exact statistic is one aggregate over the rows with the clipping on the executors ({@link org.privadapt.spark.RowAggregation},
 * compensated sums), and the noise is drawn once on the driver by the same code the in-process release uses. Spark is
 * a {@code provided} dependency of this module only; no core module imports it.
 */
package org.privadapt.spark;
