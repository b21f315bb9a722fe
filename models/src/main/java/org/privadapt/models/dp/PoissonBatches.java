package org.privadapt.models.dp;

/**
 * A DP-SGD run's Poisson batches, handed out step by step: drawn at each step from the run's randomness, or, when the
 * randomness keeps the batches on a stream of their own ({@link NoiseAndSampling#samplingSeparate()}) and the
 * gradient sums ask for it ({@link Lookahead}), a window of steps at a time, the window handed to the sums before its
 * first step. Either way the batches are the same draws in the same order (step 0's first): drawing ahead changes
 * when the bits are read, not which batch a step gets, so it changes neither the mechanism nor a seeded run.
 */
public final class PoissonBatches {
    /** Gradient sums that want several steps' batches at once (for example to fetch their rows in one pass). */
    public interface Lookahead {
        /** How many steps' batches to draw at a time (1 or less: one step at a time). */
        int window();

        /** The batches of steps {@code firstStep, firstStep + 1, ...}, before the first of them is summed. */
        void ahead(int[][] batches, long firstStep);
    }

    private final NoiseAndSampling rnd;
    private final int n;
    private final double q;
    private final long steps;
    private final Lookahead lookahead;
    private final int window;
    private int[][] pending;
    private long pendingFirst;

    /**
     * The batches of a run of {@code steps} steps over n records at rate q; {@code lookahead} may be null (one step at
     * a time), and is used only when the randomness draws the batches on a stream of their own.
     */
    public PoissonBatches(NoiseAndSampling rnd, int n, double q, long steps, Lookahead lookahead) {
        this.rnd = rnd;
        this.n = n;
        this.q = q;
        this.steps = steps;
        this.lookahead = lookahead;
        this.window = lookahead != null && rnd.samplingSeparate() ? Math.max(1, lookahead.window()) : 1;
    }

    /** Steps drawn at a time (1 unless drawing ahead). */
    public int window() {
        return window;
    }

    /** Step {@code step}'s batch (steps asked in order 0, 1, ...): increasing record indices. */
    public int[] next(long step) {
        if (window == 1) {
            return rnd.poissonBatch(n, q);
        }
        if (pending == null || step >= pendingFirst + pending.length) {
            if (pending != null && step != pendingFirst + pending.length) {
                throw new IllegalStateException("step " + step + " asked after step " + (pendingFirst + pending.length - 1));
            }
            int k = (int) Math.min(window, steps - step);
            pending = new int[Math.max(1, k)][];
            for (int t = 0; t < pending.length; t++) {
                pending[t] = rnd.poissonBatch(n, q);
            }
            pendingFirst = step;
            lookahead.ahead(pending, step);
        }
        return pending[(int) (step - pendingFirst)];
    }
}
