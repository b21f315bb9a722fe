package org.privadapt.math;

/**
 * A vector of running sums with Neumaier's compensation: each entry is a pair (sum, lost low-order part), so a sum of
 * n terms is within about one rounding of the exact sum, whatever the order of the terms (the error bound of a plain
 * sum grows with n and depends on the order; this one is {@code 2u |S| + O(n u^2) sum |x_i|}). Used by the streaming
 * releases, which add one exact statistic per chunk of rows: a result then does not depend on the chunk size beyond
 * about one rounding; and by the spark module's aggregates (serialisable, so a partition's accumulator travels to the
 * driver). Not thread-safe.
 */
public final class CompensatedSums implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final double[] sum;
    private final double[] comp;

    public CompensatedSums(int size) {
        sum = new double[size];
        comp = new double[size];
    }

    public int size() {
        return sum.length;
    }

    /** Adds {@code v} to entry {@code i}. */
    public void add(int i, double v) {
        double s = sum[i];
        double t = s + v;
        if (Math.abs(s) >= Math.abs(v)) {
            comp[i] += (s - t) + v;
        } else {
            comp[i] += (v - t) + s;
        }
        sum[i] = t;
    }

    /** Adds {@code values[j]} to entry {@code j} for every j (the lengths must agree). */
    public void addAll(double[] values) {
        if (values.length != sum.length) {
            throw new IllegalArgumentException("sizes " + sum.length + " and " + values.length);
        }
        for (int i = 0; i < values.length; i++) {
            add(i, values[i]);
        }
    }

    /** Adds every entry of {@code other} (its sum, then its compensation) to this. */
    public void merge(CompensatedSums other) {
        if (other.sum.length != sum.length) {
            throw new IllegalArgumentException("sizes " + sum.length + " and " + other.sum.length);
        }
        for (int i = 0; i < sum.length; i++) {
            add(i, other.sum[i]);
            comp[i] += other.comp[i];
        }
    }

    /** Entry {@code i}: the sum plus its compensation. */
    public double value(int i) {
        return sum[i] + comp[i];
    }

    /** Every entry. */
    public double[] values() {
        double[] out = new double[sum.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = value(i);
        }
        return out;
    }
}
