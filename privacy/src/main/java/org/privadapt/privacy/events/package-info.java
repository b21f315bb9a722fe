/**
 * Immutable DP events (as dp_accounting's): what a release did, in terms an accountant can
 * bound: Gaussian and Laplace mechanisms, Poisson-sampled events, self-composition, composition, and the JSON form
 * ({@link org.privadapt.privacy.events.EventJson}) stored in ledgers and artifacts.
 */
package org.privadapt.privacy.events;
