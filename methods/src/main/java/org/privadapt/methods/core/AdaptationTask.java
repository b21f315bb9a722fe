package org.privadapt.methods.core;

import org.privadapt.data.Dataset;

/**
 * One adaptation task: the labelled source, the target sample used for adaptation (its labels, if any, are
 * never read by a method), and the labelled target rows on which accuracy is measured (often the same rows as
 * {@code target}, as in the unsupervised Office-Caltech10 protocol), and the preprocessing spec each party applied to
 * its own rows.
 */
public record AdaptationTask(String name, Dataset source, Dataset target, Dataset evaluation, String preprocessing) {
    public AdaptationTask(String name, Dataset source, Dataset target, Dataset evaluation) {
        this(name, source, target, evaluation, "none");
    }
}
