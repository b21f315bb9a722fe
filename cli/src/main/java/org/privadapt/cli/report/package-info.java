/**
 * Reports: the JSON result model ({@link org.privadapt.cli.report.Report}), Markdown tables,
 * plots, bench checkpoints and atomic file writes. Below the command line: it uses nothing of
 * {@code org.privadapt.cli} or its commands (ReportLayeringTest checks it).
 */
package org.privadapt.cli.report;
