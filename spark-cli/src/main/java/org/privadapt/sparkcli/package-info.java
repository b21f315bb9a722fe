/**
 * The CLI's Spark engine ({@code --engine spark}): a {@link org.privadapt.cli.engine.RowEngine} service over the spark
 * module's releases, and (this module's shaded jar) the CLI to submit with {@code spark-submit} (docs/spark.md).
 */
package org.privadapt.sparkcli;
