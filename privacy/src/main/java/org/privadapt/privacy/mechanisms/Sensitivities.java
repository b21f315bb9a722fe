package org.privadapt.privacy.mechanisms;

import org.privadapt.privacy.NeighbouringRelation;

/**
 * Sensitivities of the releases the methods make, from stated bounds only (never from data), with the argument
 * for each. docs/privacy/gaussian-mechanism.md and laplace-mechanism.md repeat them.
 */
public final class Sensitivities {
    private Sensitivities() {
    }

    /**
     * L2 sensitivity of a sum of per-record vectors of L2 norm at most {@code c}: c under add/remove (one vector
     * appears or disappears), 2c under replace-one (one vector is swapped for another, ||u - v|| &lt;= 2c).
     */
    public static double clippedSum(NeighbouringRelation r, double c) {
        positive(c, "clip norm");
        return r.sumSensitivity(c);
    }

    /**
     * L2 sensitivity of the upper triangle (diagonal included) of {@code X^T X = sum_i x_i x_i^T} when every row has
     * L2 norm at most R. For one symmetric M, the upper-triangle vector has squared norm
     * {@code (||M||_F^2 + sum_j M_jj^2) / 2 <= ||M||_F^2}.
     * <ul>
     *   <li>add/remove: M = x x^T, ||M||_F = ||x||^2 &lt;= R^2; bound R^2 (attained by x = R e_j).</li>
     *   <li>replace-one: M = x x^T - y y^T, ||M||_F^2 = ||x||^4 + ||y||^4 - 2 (x.y)^2 &lt;= 2 R^4; bound sqrt(2) R^2
     *       (attained by x = R e_1, y = R e_2). Tighter than the 2R^2 the triangle inequality gives.</li>
     * </ul>
     */
    public static double gramUpperTriangle(NeighbouringRelation r, double rowBound) {
        positive(rowBound, "row norm bound");
        double r2 = rowBound * rowBound;
        return r == NeighbouringRelation.ADD_OR_REMOVE_ONE ? r2 : Math.sqrt(2.0) * r2;
    }

    /**
     * Sensitivity of a histogram of per-record categories (each record counts once): L1 1 and L2 1 under
     * add/remove; L1 2 and L2 sqrt(2) under replace-one (one count down, another up; 0 if the category is the same).
     */
    public static double histogramL1(NeighbouringRelation r) {
        return r == NeighbouringRelation.ADD_OR_REMOVE_ONE ? 1.0 : 2.0;
    }

    public static double histogramL2(NeighbouringRelation r) {
        return r == NeighbouringRelation.ADD_OR_REMOVE_ONE ? 1.0 : Math.sqrt(2.0);
    }

    /** Sensitivity of a count: 1 under add/remove, 0 under replace-one (the size is public there). */
    public static double count(NeighbouringRelation r) {
        return r == NeighbouringRelation.ADD_OR_REMOVE_ONE ? 1.0 : 0.0;
    }

    static void positive(double v, String what) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be a positive number, got " + v);
        }
    }
}
