package org.privadapt.data;

/** Real-valued regression targets with a name (e.g. {@code CO}). */
public final class RealTargets implements Labels {
    private final double[] values;
    private final String name;

    public RealTargets(double[] values, String name) {
        this.values = values.clone();
        this.name = name;
    }

    @Override
    public int size() {
        return values.length;
    }

    public double value(int i) {
        return values[i];
    }

    public double[] values() {
        return values.clone();
    }

    public String name() {
        return name;
    }

    @Override
    public RealTargets selectRows(int[] idx) {
        double[] out = new double[idx.length];
        for (int t = 0; t < idx.length; t++) {
            out[t] = values[idx[t]];
        }
        return new RealTargets(out, name);
    }
}
