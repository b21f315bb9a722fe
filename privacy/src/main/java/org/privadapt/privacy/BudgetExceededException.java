package org.privadapt.privacy;

/**
 * A release was refused because it would take a party past its stated privacy budget, or because the budget
 * cannot pay for the requested release at all. Thrown before any noise is drawn or anything is written.
 */
public class BudgetExceededException extends Exception {
    private static final long serialVersionUID = 1L;

    public BudgetExceededException(String message) {
        super(message);
    }
}
