/**
 * Domain-adversarial networks (DANN) and paper 001's trainer: the network (feature extractor, label head, shared or
 * split domain heads) and one iteration's label step, noisy target domain step and source domain step.
 */
package org.privadapt.models.dann;
