/**
 * Paper 003 (Bassily, Cortes, Mao, Mohri 2024): supervised adaptation from a public labelled source to a private
 * labelled target by discrepancy-weighted learning (PCnvxAdap); privacy in docs/privacy/bassily.md.
 */
package org.privadapt.methods.bassily;
