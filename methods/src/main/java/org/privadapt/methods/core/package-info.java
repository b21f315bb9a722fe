/**
 * What every adaptation method shares: the {@link org.privadapt.methods.core.AdaptationMethod}
 * interface and its registry ({@link org.privadapt.methods.core.Methods}, filled by the families'
 * {@link org.privadapt.methods.core.MethodProvider}s, so that this package depends on none of them), tasks,
 * configurations and checked parameter names, the privacy context of a run, DP-SGD planning
 * ({@link org.privadapt.methods.core.PrivateTraining}) and the refusal of undeclared facts
 * ({@link org.privadapt.methods.core.Disclosures}).
 */
package org.privadapt.methods.core;
