package org.privadapt.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dp.PoissonBatches;
import scala.Tuple2;

/**
 * DP-SGD's batches a window of steps at a time, their rows fetched from the cached blocks in one Spark job (issue 45
 * item 2). A step on Spark as one job per step costs the job (24-33 ms on a local master, docs/performance.md), about
 * twenty times the arithmetic of a 256-row step; with the batches of the next S steps known (drawn ahead from a
 * sampling stream of their own, {@link PoissonBatches}), one job gathers the distinct rows they use and every step of
 * the window sums its clipped gradients on the driver, on those rows, as the in-process trainer does on its matrix.
 *
 * <p>The window is set from public quantities only, to bound the driver's memory: S = 2^22 / (q n d) values (32 MiB
 * of rows) up to {@value #MAX_WINDOW} steps; where fewer than {@value #MIN_WINDOW} steps fit (batches of tens of
 * thousands of rows) there is no window and each step is summed on the executors ({@link SparkDpSgd#sampledSum}),
 * where the rows' arithmetic is then worth the job. The rows reach the driver, the party's own process that holds its
 * noise and ledger; nothing leaves the party.
 */
final class GatheredBatches implements PoissonBatches.Lookahead {
    /** Values a window's rows may take on the driver (32 MiB of doubles). */
    static final long WINDOW_VALUES = 1L << 22;
    /** At most this many steps per window. */
    static final int MAX_WINDOW = 1024;
    /** Below this many steps per window, no window: each step's sum is a job on the executors. */
    static final int MIN_WINDOW = 4;

    private final SparkDpSgd.Cached cached;
    private final int window;
    private long first = -1;
    private int steps;
    private int[] union;
    private DenseMatrix rows;
    private int[] codes;
    private int fetches;

    private GatheredBatches(SparkDpSgd.Cached cached, int window) {
        this.cached = cached;
        this.window = window;
    }

    /** For DP-SGD at rate q over the cached rows: the window from q, n and d (1: no window). */
    static GatheredBatches of(SparkDpSgd.Cached cached, double q) {
        return new GatheredBatches(cached, window(q, cached.rows(), cached.dimension()));
    }

    /** A window of {@code steps} steps whatever the batches' size (the tests' hook; 1: no window). */
    static GatheredBatches withWindow(SparkDpSgd.Cached cached, int steps) {
        return new GatheredBatches(cached, Math.max(1, steps));
    }

    /** Steps per window for expected batches of q n rows of d values (1 when fewer than {@value #MIN_WINDOW} fit). */
    static int window(double q, long n, int d) {
        double perStep = Math.max(1.0, q * n) * Math.max(1, d);
        double fits = Math.floor(WINDOW_VALUES / perStep);
        return fits < MIN_WINDOW ? 1 : (int) Math.min(MAX_WINDOW, fits);
    }

    @Override
    public int window() {
        return window;
    }

    /** A step's batch on the window's rows: the rows (u x d), their labels' codes, and the batch as row positions. */
    record Local(DenseMatrix x, int[] codes, int[] batch) {
    }

    /** Fetches the rows of every batch of the window in one job (the union of their indices, in the table's order). */
    @Override
    public void ahead(int[][] batches, long firstStep) {
        int total = 0;
        for (int[] b : batches) {
            total += b.length;
        }
        int[] all = new int[total];
        int at = 0;
        for (int[] b : batches) {
            System.arraycopy(b, 0, all, at, b.length);
            at += b.length;
        }
        Arrays.sort(all);
        int u = 0;
        for (int i = 0; i < all.length; i++) {
            if (u == 0 || all[i] != all[u - 1]) {
                all[u++] = all[i];
            }
        }
        int[] wanted = Arrays.copyOf(all, u);
        Fetched f = fetch(cached, wanted);
        this.union = wanted;
        this.rows = DenseMatrix.fromRowMajor(u, cached.dimension(), f.rowMajor);
        this.codes = f.codes;
        this.first = firstStep;
        this.steps = batches.length;
        this.fetches++;
    }

    /** How many windows were fetched (one job each). */
    int fetches() {
        return fetches;
    }

    /** The step's batch on the window's rows, or null when the step is not in the current window. */
    Local local(int[] batch, long step) {
        if (first < 0 || step < first || step >= first + steps) {
            return null;
        }
        int[] at = new int[batch.length];
        for (int t = 0; t < batch.length; t++) {
            int k = Arrays.binarySearch(union, batch[t]);
            if (k < 0) {
                throw new IllegalStateException("step " + step + "'s batch holds row " + batch[t] + ", not fetched for its window");
            }
            at[t] = k;
        }
        return new Local(rows, codes, at);
    }

    /** A partition's fetched rows: row-major features and codes. */
    record Fetched(double[] rowMajor, int[] codes) implements Serializable {
    }

    /** The rows {@code wanted} (increasing table indices) of the cached blocks, in that order, in one job. */
    static Fetched fetch(SparkDpSgd.Cached cached, int[] wanted) {
        long[] offsets = cached.offsets().clone();
        int d = cached.dimension();
        List<Tuple2<Integer, Fetched>> parts = new ArrayList<>(cached.blocks().mapPartitionsWithIndex((Integer p, Iterator<SparkDpSgd.Block> it) -> {
            double[] x = new double[0];
            int[] y = new int[0];
            long off = offsets[p];
            while (it.hasNext()) {
                SparkDpSgd.Block b = it.next();
                int lo = SparkDpSgd.lowerBound(wanted, off);
                int hi = SparkDpSgd.lowerBound(wanted, off + b.rows());
                int k = hi - lo;
                int base = y.length;
                x = Arrays.copyOf(x, (base + k) * d);
                y = Arrays.copyOf(y, base + k);
                for (int t = 0; t < k; t++) {
                    int local = (int) (wanted[lo + t] - off);
                    b.copyRow(local, x, (base + t) * d);
                    y[base + t] = b.codes()[local];
                }
                off += b.rows();
            }
            List<Tuple2<Integer, Fetched>> one = new ArrayList<>(1);
            one.add(new Tuple2<>(p, new Fetched(x, y)));
            return one.iterator();
        }, false).collect());
        parts.sort(Comparator.comparing(Tuple2::_1));
        double[] x = new double[wanted.length * d];
        int[] y = new int[wanted.length];
        int at = 0;
        for (Tuple2<Integer, Fetched> t : parts) {
            int k = t._2().codes().length;
            if (at + k > wanted.length) {
                throw new IllegalStateException("more rows fetched than asked (the table's rows changed between steps)");
            }
            System.arraycopy(t._2().rowMajor(), 0, x, at * d, k * d);
            System.arraycopy(t._2().codes(), 0, y, at, k);
            at += k;
        }
        if (at != wanted.length) {
            throw new IllegalStateException(wanted.length + " rows were asked, " + at + " were found "
                    + "(the table's rows changed between steps)");
        }
        return new Fetched(x, y);
    }
}
