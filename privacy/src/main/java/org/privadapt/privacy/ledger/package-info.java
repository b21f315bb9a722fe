/**
 * A party's budget ledger ({@link org.privadapt.privacy.ledger.BudgetLedger}): a JSON file of
 * every release charged, with its event and sampler, chained by SHA-256 (which catches accidents and naive edits, not
 * a deliberate rewrite), written atomically; a plan is charged in one write or refused whole. See
 * {@code docs/privacy/ledger.md}.
 */
package org.privadapt.privacy.ledger;
