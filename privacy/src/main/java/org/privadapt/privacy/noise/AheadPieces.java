package org.privadapt.privacy.noise;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The work behind one {@link GaussianVectorSampler.Ahead}: the vectors being filled, cut into pieces of
 * {@value GaussianVectorSampler#AHEAD_PIECE} coordinates; a helper in the common fork-join pool takes pieces from
 * the start ({@link #helperWork}), and {@link #complete} draws what is left in the calling thread and waits for the
 * helper's last piece. Each piece is drawn once, by one thread, from that thread's stream. A failure in any piece
 * is recorded, so that a partly drawn vector is never handed out. Whether the noise was already used is the
 * {@code Ahead}'s business, not this class's.
 */
final class AheadPieces {
    private final double[][] buffers;
    /** How many coordinates of each buffer are drawn (from the start; all of it for {@code drawAhead}). */
    private final int[] lengths;
    private final double sigma;
    private final RandomBits helperStream;
    private final int[] pieceArray;
    private final int[] pieceFrom;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private volatile Throwable failure;
    private boolean complete;

    AheadPieces(double[][] buffers, int[] lengths, double sigma, RandomBits helperStream) {
        this.buffers = buffers;
        this.lengths = lengths;
        this.sigma = sigma;
        this.helperStream = helperStream;
        int pieces = 0;
        for (int length : lengths) {
            pieces += (length + GaussianVectorSampler.AHEAD_PIECE - 1) / GaussianVectorSampler.AHEAD_PIECE;
        }
        pieceArray = new int[pieces];
        pieceFrom = new int[pieces];
        int p = 0;
        for (int a = 0; a < buffers.length; a++) {
            for (int from = 0; from < lengths[a]; from += GaussianVectorSampler.AHEAD_PIECE) {
                pieceArray[p] = a;
                pieceFrom[p++] = from;
            }
        }
    }

    /** The buffers the noise is drawn into (not copies). */
    double[][] buffers() {
        return buffers;
    }

    /** How many coordinates of each buffer are drawn (not a copy). */
    int[] lengths() {
        return lengths;
    }

    /** The helper's task: draws pieces from its own stream until none is left. */
    void helperWork() {
        work(helperStream);
    }

    /**
     * Draws pieces from {@code stream} until none is left. Each claimed piece is counted done even when drawing it
     * fails; a failure is recorded (and the pieces after it only claimed), so that a partly drawn vector is
     * never added and nobody waits for a piece that will not come.
     */
    private void work(RandomBits stream) {
        for (int p = next.getAndIncrement(); p < pieceArray.length; p = next.getAndIncrement()) {
            try {
                if (failure == null) {
                    double[] v = buffers[pieceArray[p]];
                    int from = pieceFrom[p];
                    int to = Math.min(lengths[pieceArray[p]], from + GaussianVectorSampler.AHEAD_PIECE);
                    if (stream instanceof SecureRandomBits secure) {
                        // written over: no pass to clear it first
                        HardenedFill.fillInPlace(v, from, to, secure, sigma, true);
                    } else {
                        Arrays.fill(v, from, to, 0.0);
                        HardenedFill.fill(v, from, to, stream, sigma);
                    }
                }
            } catch (RuntimeException | Error e) {
                failure = e;
            } finally {
                done.incrementAndGet();
            }
        }
    }

    /**
     * Draws the pieces left in the calling thread (from {@code callerStream}) and waits for the helper's; throws if
     * any piece failed (again on every later call).
     */
    void complete(RandomBits callerStream) {
        if (!complete) {
            work(callerStream);
            while (done.get() < pieceArray.length) {
                Thread.onSpinWait();
            }
            complete = true;
        }
        if (failure != null) {
            throw new IllegalStateException("drawing the noise failed", failure);
        }
    }
}
