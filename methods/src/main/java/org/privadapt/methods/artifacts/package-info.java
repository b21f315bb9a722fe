/**
 * The typed, versioned artifacts that cross between the two parties
 * ({@link org.privadapt.methods.artifacts.Artifact}): kind, method, party, privacy statement and payload, sealed by a
 * SHA-256 checksum over the canonical JSON; damaged, edited or foreign files are refused. A party may sign what it
 * writes with its Ed25519 key ({@link org.privadapt.methods.artifacts.ArtifactKeys}) and its partner verify the origin
 * against the public key it was given ({@link org.privadapt.methods.artifacts.Artifact#verifiedBy}).
 */
package org.privadapt.methods.artifacts;
