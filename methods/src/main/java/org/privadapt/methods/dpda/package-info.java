/**
 * Paper 001 (Wang et al. 2020): {@code nn}, {@code dann}, {@code dpda} and {@code g-dpda} as adaptation methods on the
 * network engine; privacy in docs/privacy/dpda.md, results in docs/results/dpda.md.
 */
package org.privadapt.methods.dpda;
