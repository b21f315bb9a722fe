/**
 * The non-private reference points of every comparison: {@code source-only} (no adaptation) and {@code target-only}
 * (no transfer). They sit above the method families because under a family's protocol they run that family's
 * version of the baseline (paper 003's supervised split, {@link org.privadapt.methods.bassily.SupervisedBaselines};
 * paper 004's no-adapt setting, {@link org.privadapt.methods.gmmuda.GmmUdaMethod}; paper 002's labelled target rows,
 * {@link org.privadapt.methods.dpot.TargetLabels}).
 */
package org.privadapt.methods.baseline;
