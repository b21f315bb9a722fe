package org.privadapt.methods.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.data.DataException;
import org.privadapt.data.io.RowChunks;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.CompensatedSums;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.models.dp.ClassStatistics;

/**
 * The ncm and lda class statistics of a file read in blocks: the block's exact statistic as the in-process release
 * computes it ({@link PrivateLearners#ncmExact}, {@link PrivateLearners#ldaExact}: row-local normalisation or clipping,
 * then sums), added over the blocks with compensated sums; {@link ClassStatistics#ofExact} then gives the statistic the
 * release's noise step ({@link PrivateLearners#ncmNoise}, {@link PrivateLearners#ldaNoise}) takes. The class set is
 * given (public), as on Spark: a label outside it is refused, before anything is returned.
 */
public final class StreamedStatistics {
    private StreamedStatistics() {
    }

    /** The ncm release's exact statistic over every row of {@code rows} (after {@code preprocessing}). */
    public static ClassStatistics ncmExact(RowChunks rows, Preprocessing preprocessing, int chunkRows, List<String> classes)
            throws DataException {
        return exact(rows, preprocessing, chunkRows, classes, false, null);
    }

    /** The lda release's exact statistic (rows clipped to the plan's R) over every row of {@code rows}. */
    public static ClassStatistics ldaExact(PrivateLearners.Plan plan, RowChunks rows, Preprocessing preprocessing, int chunkRows,
                                           List<String> classes) throws DataException {
        return exact(rows, preprocessing, chunkRows, classes, true, plan);
    }

    private static ClassStatistics exact(RowChunks rows, Preprocessing preprocessing, int chunkRows, List<String> classes,
                                         boolean lda, PrivateLearners.Plan plan) throws DataException {
        if (!rows.labelled()) {
            throw new DataException(rows.file(), null, "domain '" + rows.domain() + "' has no labels, but labels are required here");
        }
        int k = classes.size();
        int d = rows.dimension();
        Map<String, Integer> code = new HashMap<>();
        for (int i = 0; i < k; i++) {
            code.put(classes.get(i), i);
        }
        CompensatedSums counts = new CompensatedSums(k);
        CompensatedSums sums = new CompensatedSums(k * d);
        CompensatedSums moment = lda ? new CompensatedSums(d * d) : null;
        String[] outside = new String[2];
        rows.scan(chunkRows, preprocessing, chunk -> {
            if (outside[0] != null) {
                return;
            }
            int[] y = StreamedPrimaTrain.codes(chunk, code, outside);
            if (y == null) {
                return;
            }
            ClassStatistics s = lda ? PrivateLearners.ldaExact(plan, chunk.features(), y, k)
                    : PrivateLearners.ncmExact(chunk.features(), y, k);
            counts.addAll(s.counts());
            sums.addAll(s.sums().data());
            if (lda) {
                moment.addAll(s.moment().data());
            }
        }, null);
        if (outside[0] != null) {
            throw new DataException(rows.file(), "row " + org.privadapt.data.PrivateText.row(Long.parseLong(outside[1])), "label "
                    + org.privadapt.data.PrivateText.quoted(outside[0]) + " is not one of the classes " + classes);
        }
        return ClassStatistics.ofExact(counts.values(), new DenseMatrix(k, d, sums.values()),
                lda ? new DenseMatrix(d, d, moment.values()) : null);
    }
}
