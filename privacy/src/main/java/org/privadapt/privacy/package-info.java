/**
 * The privacy core: budgets, neighbouring relations and a party's session. A
 * {@link org.privadapt.privacy.PrivacySession} charges every release of a plan (its DP event) against the run's
 * target and the party's ledger before any noise is drawn, atomically; {@link org.privadapt.privacy.PrivacyCost}
 * states what was spent, and whether the noise was secure. See {@code docs/privacy/}.
 */
package org.privadapt.privacy;
