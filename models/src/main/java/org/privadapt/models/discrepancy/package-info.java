/**
 * Paper 003 (Bassily, Cortes, Mao, Mohri 2024): discrepancy-weighted learning from a public source and a private
 * labelled target; the convex reparameterised problem and its noisy projected gradient descent (CnvxAdap /
 * PCnvxAdap).
 */
package org.privadapt.models.discrepancy;
