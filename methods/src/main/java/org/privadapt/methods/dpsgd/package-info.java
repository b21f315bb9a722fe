/**
 * DP source-only: the private no-adaptation baseline, a DP-SGD model of the source.
 */
package org.privadapt.methods.dpsgd;
