package org.privadapt.models.mixture;

/** The shape of a mixture component's covariance. */
public enum CovarianceType {
    /** A diagonal covariance: d variances per component (features treated as independent within a component). */
    DIAGONAL,
    /** A full d x d symmetric positive definite covariance per component. */
    FULL
}
