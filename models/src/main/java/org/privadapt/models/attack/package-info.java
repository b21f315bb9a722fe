/** Attacks that measure what a release leaks (membership inference), for results tables, not for training. */
package org.privadapt.models.attack;
