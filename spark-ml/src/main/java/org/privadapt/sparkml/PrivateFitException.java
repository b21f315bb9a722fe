package org.privadapt.sparkml;

/**
 * A private stage's fit refused or failed: the budget short ({@link org.privadapt.privacy.BudgetExceededException} as
 * the cause, nothing charged), the ledger damaged ({@link org.privadapt.privacy.ledger.BudgetLedger.LedgerException}),
 * or the rows or settings refused before the charge. Spark's {@code fit} declares no checked exception, so the cause
 * is carried here; the message is the cause's.
 */
public final class PrivateFitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PrivateFitException(String message, Throwable cause) {
        super(message, cause);
    }
}
