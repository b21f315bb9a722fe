/**
 * Generated two-domain problems with a covariate shift
 * ({@link org.privadapt.data.synthetic.SyntheticShift}): the embedded default of {@code privadapt demo} and the
 * tests' data.
 */
package org.privadapt.data.synthetic;
