package org.privadapt.methods.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.data.DataException;
import org.privadapt.data.io.RowChunks;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.CompensatedSums;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.mixture.CovarianceType;
import org.privadapt.models.mixture.DpGaussianMixtureEm;
import org.privadapt.models.mixture.GaussianMixture;
import org.privadapt.models.mixture.SufficientStatistics;
import org.privadapt.models.nn.Gradients;
import org.privadapt.models.nn.Network;

/**
 * The iterative releases of a file read in blocks, one pass over the file per release (issue 31, streaming): DP-EM's
 * per-iteration statistics (paper 004) as a {@link DpGaussianMixtureEm.StatisticsSource}, dp-gd's full-batch
 * clipped gradient sums as a {@link DpSgdTrainer.BatchSums}, and paper 003's descent's gradient sums as a
 * {@link org.privadapt.methods.bassily.NoisyGradientDescent.GradientSum}. Each block's exact statistic is the in-process function
 * of its rows ({@link DpGaussianMixtureEm#clipRows} then {@link DpGaussianMixtureEm#statistics} /
 * {@link DpGaussianMixtureEm#initialStatistics}; {@link DpSgdTrainer#clippedSum}), added over the blocks with
 * compensated sums, so the release equals the load-everything one to rounding; the noise, the plan and the charge are
 * the in-process trainers' ({@link DpGaussianMixtureEm#fit(DpGaussianMixtureEm.StatisticsSource,
 * DpGaussianMixtureEm.Config, org.privadapt.models.dp.NoiseAndSampling, DpGaussianMixtureEm.Observer)},
 * {@link DpSgdTrainer#train(Network, int, DpSgdTrainer.BatchSums, org.privadapt.models.dp.DpSgdConfig,
 * org.privadapt.models.dp.NoiseAndSampling)}). Memory is one block plus the statistic, whatever n.
 *
 * <p>Every pass after the first refuses a file whose bytes changed (SHA-256 of the first pass): the releases of one
 * training must all be of the same rows. A refusal after the first charge surfaces as a
 * {@link StreamedMoments.StreamException}.
 */
public final class StreamedTraining {
    private StreamedTraining() {
    }

    /** The rows' first pass: every row checked as the whole-file loader checks it; the summary (its n is private). */
    public static RowChunks.Summary check(RowChunks rows, Preprocessing preprocessing, int chunkRows) throws DataException {
        return rows.scan(chunkRows, preprocessing, chunk -> { }, null);
    }

    /**
     * DP-EM's statistics source over the file's rows clipped to {@code clipNorm}, one pass per release.
     *
     * @param first the summary of a first pass ({@link #check}): later passes must read the same bytes
     */
    public static DpGaussianMixtureEm.StatisticsSource dpEm(RowChunks rows, Preprocessing preprocessing, int chunkRows,
                                                            double clipNorm, RowChunks.Summary first) {
        int d = rows.dimension();
        return DpGaussianMixtureEm.StatisticsSource.of(d, (current, type) -> {
            int k = current == null ? 1 : current.components();
            boolean full = type == CovarianceType.FULL;
            CompensatedSums counts = new CompensatedSums(k);
            CompensatedSums sums = new CompensatedSums(k * d);
            CompensatedSums moments = new CompensatedSums(full ? k * d * d : k * d);
            scan(rows, preprocessing, chunkRows, first, chunk -> {
                DenseMatrix z = DpGaussianMixtureEm.clipRows(chunk.features(), clipNorm);
                SufficientStatistics s = current == null ? DpGaussianMixtureEm.initialStatistics(z, type)
                        : DpGaussianMixtureEm.statistics(z, current);
                counts.addAll(s.countVector());
                sums.addAll(s.sumVector());
                for (int c = 0; c < k; c++) {
                    double[] m = full ? s.secondMoment(c).data() : s.secondMomentDiagonal(c);
                    int at = c * m.length;
                    for (int j = 0; j < m.length; j++) {
                        moments.add(at + j, m[j]);
                    }
                }
                });
                DenseMatrix s = DenseMatrix.zeros(k, d);
                double[] sv = sums.values();
                double[] mv = moments.values();
                for (int c = 0; c < k; c++) {
                    for (int j = 0; j < d; j++) {
                        s.set(c, j, sv[c * d + j]);
                    }
                }
                if (!full) {
                    DenseMatrix diag = DenseMatrix.zeros(k, d);
                    for (int c = 0; c < k; c++) {
                        for (int j = 0; j < d; j++) {
                            diag.set(c, j, mv[c * d + j]);
                        }
                    }
                    return SufficientStatistics.ofExact(type, counts.values(), s, diag, null);
                }
                DenseMatrix[] m = new DenseMatrix[k];
                for (int c = 0; c < k; c++) {
                    m[c] = new DenseMatrix(d, d, java.util.Arrays.copyOfRange(mv, c * d * d, (c + 1) * d * d));
                }
                return SufficientStatistics.ofExact(type, counts.values(), s, null, m);
        });
    }

    /**
     * dp-gd's full-batch clipped sums over the file's labelled rows (labels coded by their position in the public
     * {@code classes}; a label outside them is refused), one pass per step; the batch asked for must be every row.
     *
     * @param first the summary of a first pass ({@link #check}): its row count is the full batch
     */
    public static DpSgdTrainer.BatchSums dpGd(RowChunks rows, Preprocessing preprocessing, int chunkRows, List<String> classes,
                                              double clip, int maxPhysicalBatch, RowChunks.Summary first) {
        if (!rows.labelled()) {
            throw new IllegalArgumentException("domain '" + rows.domain() + "' has no labels, but labels are required here");
        }
        Map<String, Integer> code = new HashMap<>();
        for (int c = 0; c < classes.size(); c++) {
            code.put(classes.get(c), c);
        }
        return (net, batch, step) -> {
            if (batch.length != first.rows()) {
                throw new IllegalStateException("a batch of " + batch.length + " rows was asked; the streamed path sums all "
                        + first.rows() + " (sampling rate 1)");
            }
            Gradients zero = Gradients.zerosLike(net);
            double[][] shape = zero.arrays();
            int size = 0;
            for (double[] a : shape) {
                size += a.length;
            }
            CompensatedSums total = new CompensatedSums(size);
            CompensatedSums loss = new CompensatedSums(1);
            scan(rows, preprocessing, chunkRows, first, chunk -> {
                String[] outside = new String[2];
                int[] y = StreamedPrimaTrain.codes(chunk, code, outside);
                if (y == null) {
                    throw new StreamedMoments.StreamException(new DataException(rows.file(), "row " + org.privadapt.data.PrivateText.row(Long.parseLong(outside[1])),
                            "label " + org.privadapt.data.PrivateText.quoted(outside[0]) + " is not one of the classes " + classes));
                }
                int[] all = new int[y.length];
                for (int i = 0; i < all.length; i++) {
                    all[i] = i;
                }
                DpSgdTrainer.ClippedSum s = DpSgdTrainer.clippedSum(net, chunk.features(), y, all, clip, maxPhysicalBatch, step);
                int at = 0;
                for (double[] a : s.sum().arrays()) {
                    for (double v : a) {
                        total.add(at++, v);
                    }
                }
                loss.add(0, s.lossSum());
            });
            double[] v = total.values();
            int at = 0;
            for (double[] a : shape) {
                System.arraycopy(v, at, a, 0, a.length);
                at += a.length;
            }
            return new DpSgdTrainer.ClippedSum(zero, loss.value(0));
        };
    }

    /**
     * Paper 003's noisy descent (dp-target-only): the exact gradient sum {@code sum 2 (w.x - y) x} at {@code w} over
     * the file's rows clipped to {@code rowBound} and real targets clipped to [-1, 1], one pass per step
     * ({@link org.privadapt.methods.bassily.NoisyGradientDescent#descend(
     * org.privadapt.methods.bassily.NoisyGradientDescent.Plan,
     * org.privadapt.methods.bassily.NoisyGradientDescent.GradientSum, int, int, org.privadapt.privacy.PrivacySession)}
     * takes it).
     *
     * @param first the summary of a first pass ({@link #check}): later passes must read the same bytes
     */
    public static org.privadapt.methods.bassily.NoisyGradientDescent.GradientSum gradientSum(RowChunks rows,
            Preprocessing preprocessing, int chunkRows, double rowBound, RowChunks.Summary first) {
        if (!rows.labelled()) {
            throw new IllegalArgumentException("domain '" + rows.domain() + "' has no targets, but the descent needs them");
        }
        int d = rows.dimension();
        return w -> {
            if (w.length != d) {
                throw new IllegalArgumentException("w has " + w.length + " entries, the rows " + d + " features");
            }
            double[] at = w.clone();
            CompensatedSums sums = new CompensatedSums(d);
            scan(rows, preprocessing, chunkRows, first, chunk -> {
                String[] labels = chunk.labels();
                double[] y = new double[labels.length];
                for (int i = 0; i < y.length; i++) {
                    try {
                        y[i] = org.privadapt.methods.bassily.PCnvxAdap.clipTarget(Double.parseDouble(labels[i].trim()));
                    } catch (NumberFormatException | NullPointerException e) {
                        throw new StreamedMoments.StreamException(new DataException(rows.file(), "row " + org.privadapt.data.PrivateText.row(chunk.firstRow() + i + 1),
                                "target " + org.privadapt.data.PrivateText.quoted(labels[i]) + " is not a number"));
                    }
                }
                DenseMatrix xc = org.privadapt.methods.bassily.PCnvxAdap.clipRows(chunk.features(), rowBound);
                sums.addAll(org.privadapt.methods.bassily.NoisyGradientDescent.inProcess(xc, y).at(at));
            });
            return sums.values();
        };
    }

    private static void scan(RowChunks rows, Preprocessing preprocessing, int chunkRows, RowChunks.Summary first,
                             RowChunks.Consumer consumer) {
        try {
            rows.scan(chunkRows, preprocessing, consumer, first == null ? null : first.sha256());
        } catch (DataException e) {
            throw new StreamedMoments.StreamException(e);
        }
    }
}
