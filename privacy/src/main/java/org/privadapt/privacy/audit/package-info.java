/**
 * Empirical privacy auditing (issue 30): lower bounds on epsilon from attacks on worst-case neighbours, beside the
 * claimed epsilon. See docs/privacy/audit.md.
 */
package org.privadapt.privacy.audit;
