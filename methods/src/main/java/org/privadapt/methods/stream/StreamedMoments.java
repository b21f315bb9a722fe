package org.privadapt.methods.stream;

import java.util.ArrayList;
import java.util.List;
import org.privadapt.data.DataException;
import org.privadapt.data.io.RowChunks;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.CompensatedSums;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.prima.Partition;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.SecondMomentRelease;

/**
 * PRIMA/PRISA's target moments from a file read in blocks: a {@link Prima.MomentSource} whose exact moments are the
 * compensated sums of each block's exact moments as the in-process source computes them ({@link Prima#inProcess}: rows
 * clipped to R, then per block; block Gram matrices, column sums, the count exactly as a {@code long}).
 *
 * <p>{@link #prepare} reads the file once <em>before</em> anything is charged: it checks every row as the whole-file
 * loader does and, in the same pass, sums the moments the release will ask for first (the full moments for forward
 * selection; the final partition's otherwise, which is public: single, or random from the seed). Only forward
 * selection asks again, for the partition it chose from the noisy stage-1 moments, after the charge: that second pass
 * refuses a file whose bytes changed since the first (SHA-256), with a {@link StreamException}.
 */
public final class StreamedMoments implements Prima.MomentSource {
    private final RowChunks rows;
    private final Preprocessing preprocessing;
    private final int chunkRows;
    private final PrimaConfig cfg;
    private RowChunks.Summary summary;
    private Prima.FirstAsk first;
    private SecondMomentRelease.ExactMoments cached;
    private int passes;

    public StreamedMoments(RowChunks rows, Preprocessing preprocessing, int chunkRows, PrimaConfig cfg) {
        this.rows = rows;
        this.preprocessing = preprocessing;
        this.chunkRows = chunkRows;
        this.cfg = cfg;
    }

    /** A moment source's failure after {@link #prepare} (the file changed between passes): the cause says what. */
    public static final class StreamException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StreamException(DataException cause) {
            super(cause.getMessage(), cause);
        }

        public DataException data() {
            return (DataException) getCause();
        }
    }

    /**
     * The first pass: checks every row and sums the moments {@link Prima#noisyMoments(Prima.MomentSource,
     * PrimaConfig, String, long, PrivacySession)} asks for first with this config and {@code seed}.
     *
     * @return what the pass found (the row count is private: for the caller's local checks, as a dataset's size)
     * @throws DataException as the whole-file loader would refuse the file
     */
    public RowChunks.Summary prepare(long seed) throws DataException {
        Prima.FirstAsk ask = Prima.FirstAsk.of(cfg, rows.dimension(), seed);
        cached = sum(ask.partition(), ask.blockBounds());
        first = ask;
        return summary;
    }

    /** The number of passes over the file so far (one for single and random partitions, two with forward selection). */
    public int passes() {
        return passes;
    }

    @Override
    public int dimension() {
        return rows.dimension();
    }

    @Override
    public SecondMomentRelease.ExactMoments moments(Partition partition, double[] blockBounds) {
        if (cached != null && first.is(partition, blockBounds)) {
            return cached;
        }
        try {
            return sum(partition, blockBounds);
        } catch (DataException e) {
            throw new StreamException(e);
        }
    }

    private SecondMomentRelease.ExactMoments sum(Partition partition, double[] blockBounds) throws DataException {
        List<CompensatedSums> grams = new ArrayList<>();
        for (int b = 0; b < partition.size(); b++) {
            int len = partition.block(b).length;
            grams.add(new CompensatedSums(len * len));
        }
        CompensatedSums sums = new CompensatedSums(partition.dimension());
        long[] count = new long[1];
        RowChunks.Summary s = rows.scan(chunkRows, preprocessing, chunk -> {
            SecondMomentRelease.ExactMoments m = Prima.inProcess(chunk.features(), cfg).moments(partition, blockBounds);
            for (int b = 0; b < grams.size(); b++) {
                grams.get(b).addAll(m.grams().get(b).data());
            }
            sums.addAll(m.sums());
            count[0] += m.count();
        }, summary == null ? null : summary.sha256());
        passes++;
        if (summary == null) {
            summary = s;
        }
        List<DenseMatrix> out = new ArrayList<>();
        for (int b = 0; b < grams.size(); b++) {
            int len = partition.block(b).length;
            out.add(new DenseMatrix(len, len, grams.get(b).values()));
        }
        return new SecondMomentRelease.ExactMoments(partition, out, sums.values(), count[0]);
    }
}
