package org.privadapt.data;

/**
 * The targets of a dataset: class labels ({@link ClassLabels}), real-valued targets ({@link RealTargets}) or
 * multi-label binary targets ({@link MultiLabels}).
 */
public sealed interface Labels permits ClassLabels, RealTargets, MultiLabels {
    int size();

    Labels selectRows(int[] idx);
}
