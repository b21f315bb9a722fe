/**
 * DPOT (paper 002): the source's JL projection plus Gaussian noise of its label-ordered rows
 * and noisy label counts (record level, or the paper's attribute level), and dpot-da, the target's group-lasso OT onto
 * its own rows. See {@code docs/privacy/dpot.md} and {@code docs/results/dpot.md}.
 */
package org.privadapt.methods.dpot;
