/**
 * The typed, versioned artifacts that cross between the two parties
 * ({@link org.privadapt.methods.artifacts.Artifact}): kind, method, party, privacy statement and payload, sealed by a
 * SHA-256 checksum over the canonical JSON; damaged, edited or foreign files are refused.
 */
package org.privadapt.methods.artifacts;
