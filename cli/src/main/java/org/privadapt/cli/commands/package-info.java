/**
 * One class per command: demo, run, bench (and its linalg, accounting, noise, dpsgd,
 * dpot-wasserstein and sinkhorn variants), datasets, privacy (statement, epsilon, rdp, sigma, gaussian, ledger),
 * the two-party source and target steps, and inspect.
 */
package org.privadapt.cli.commands;
