/**
 * Reports: the JSON result model ({@link org.privadapt.cli.report.Report}), Markdown tables,
 * plots, bench checkpoints and atomic file writes.
 */
package org.privadapt.cli.report;
