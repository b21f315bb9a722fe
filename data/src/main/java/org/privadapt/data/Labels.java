package org.privadapt.data;

/** The targets of a dataset: class labels ({@link ClassLabels}) or real-valued targets ({@link RealTargets}). */
public sealed interface Labels permits ClassLabels, RealTargets {
    int size();

    Labels selectRows(int[] idx);
}
