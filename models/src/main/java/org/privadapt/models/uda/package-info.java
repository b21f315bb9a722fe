/**
 * Paper 004 (An et al. 2022): unsupervised domain adaptation where the target adapts its own copy of a released
 * source encoder against source features drawn from a released distribution ({@link
 * org.privadapt.models.uda.SourceFreeAdaptation}, Eq. 7: adversarial DANN/CDAN + knowledge distillation +
 * information maximisation, classifier fixed), and the "with source" DANN/CDAN baseline on labelled source data
 * ({@link org.privadapt.models.uda.WithSourceAdaptation}). Built on the network engine ({@code nn.graph}).
 */
package org.privadapt.models.uda;
