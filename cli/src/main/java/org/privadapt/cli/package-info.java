/**
 * The {@code privadapt} command line ({@link org.privadapt.cli.Main}): shared options for data,
 * methods, privacy and outputs, exit codes ({@link org.privadapt.cli.ExitCodes}), progress bars and the repeated-run
 * driver. The top of the dependency order: nothing below depends on it.
 */
package org.privadapt.cli;
