/**
 * Readers: MATLAB Level-5 MAT files (checked framing, variables found by shape or named),
 * SVMlight, CSV/TSV and whitespace tables (categorical columns one-hot or rejected, missing values an error or
 * dropped), each error one line with the file and position. {@link org.privadapt.data.io.DataFiles} picks the reader
 * from the file name.
 */
package org.privadapt.data.io;
