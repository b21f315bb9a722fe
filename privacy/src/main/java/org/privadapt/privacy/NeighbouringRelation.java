package org.privadapt.privacy;

/**
 * Which datasets count as neighbours, and so what a guarantee protects.
 *
 * <ul>
 *   <li>{@link #ADD_OR_REMOVE_ONE}: D' is D with one record added or removed (the default, as in Opacus and
 *       dp_accounting). The number of records may differ by one, so it is itself protected.</li>
 *   <li>{@link #REPLACE_ONE}: D' is D with one record replaced by another; both have the same size, which is
 *       therefore treated as public.</li>
 * </ul>
 *
 * <p>The relation changes sensitivities: a sum of vectors of norm at most C moves by at most C when a record is
 * added or removed, and by at most 2C when one is replaced ({@link #sumSensitivity}). It also changes which
 * accounting is valid: the amplification-by-Poisson-subsampling analyses used here hold for add/remove only.
 */
public enum NeighbouringRelation {
    ADD_OR_REMOVE_ONE("add/remove one record"),
    REPLACE_ONE("replace one record");

    private final String description;

    NeighbouringRelation(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /**
     * Sensitivity (in the norm in which each record's contribution is bounded by {@code c}) of a sum of per-record
     * contributions: {@code c} under add/remove, {@code 2c} under replace-one (remove one contribution, add another).
     */
    public double sumSensitivity(double c) {
        return this == ADD_OR_REMOVE_ONE ? c : 2.0 * c;
    }

    /** The short name used in files and on the command line: {@code add-remove} or {@code replace}. */
    public String id() {
        return this == ADD_OR_REMOVE_ONE ? "add-remove" : "replace";
    }

    public static NeighbouringRelation fromId(String id) {
        switch (id) {
            case "add-remove":
            case "add_or_remove_one":
            case "ADD_OR_REMOVE_ONE":
                return ADD_OR_REMOVE_ONE;
            case "replace":
            case "replace_one":
            case "REPLACE_ONE":
                return REPLACE_ONE;
            default:
                throw new IllegalArgumentException("unknown neighbouring relation '" + id + "' (add-remove or replace)");
        }
    }
}
