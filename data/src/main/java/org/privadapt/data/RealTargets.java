package org.privadapt.data;

/** Real-valued regression targets with a name (e.g. {@code CO}). */
public final class RealTargets implements Labels {
    private final double[] values;
    private final String name;

    public RealTargets(double[] values, String name) {
        this.values = values.clone();
        this.name = name;
    }

    /**
     * Class labels as real targets: every class name a number gives that number; otherwise two classes give -1 and +1
     * (in the order of their names).
     *
     * @throws DataException naming {@code file} when neither applies
     */
    public static RealTargets fromClasses(ClassLabels c, String file) throws DataException {
        java.util.List<String> names = c.names();
        double[] level = new double[names.size()];
        boolean numeric = true;
        for (int k = 0; k < level.length && numeric; k++) {
            try {
                level[k] = Double.parseDouble(names.get(k).trim());
                numeric = Double.isFinite(level[k]);
            } catch (NumberFormatException e) {
                numeric = false;
            }
        }
        if (!numeric) {
            if (names.size() != 2) {
                throw new DataException(file, null, "--task regression needs numeric labels or exactly two classes, got "
                        + PrivateText.count(names.size()) + " non-numeric classes");
            }
            level[0] = -1;
            level[1] = 1;
        }
        double[] v = new double[c.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = level[c.code(i)];
        }
        return new RealTargets(v, "label");
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
