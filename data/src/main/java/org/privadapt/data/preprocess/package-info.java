/**
 * Preprocessing steps, each fitted on one party's own data
 * ({@link org.privadapt.data.preprocess.Preprocessing}); row-local steps (l1, l2, clip, scale, public min-max)
 * change each row alone and are the only ones private methods accept for a protected party.
 * {@link org.privadapt.data.preprocess.DefaultPreprocessing} is the default policy of run, bench and demo.
 */
package org.privadapt.data.preprocess;
