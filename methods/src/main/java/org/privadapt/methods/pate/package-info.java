/**
 * PATE with the GNMax aggregator (the private baseline of paper 002): teachers on disjoint
 * source partitions vote on target rows with Gaussian noise; the target's rows are read unprotected.
 */
package org.privadapt.methods.pate;
