package org.privadapt.data.preprocess;

import java.util.ArrayList;
import java.util.List;
import org.privadapt.data.Dataset;

/**
 * A sequence of preprocessing steps, parsed from a spec such as {@code l1,zscore} or {@code minmax=0:1,clip=1}.
 *
 * <p>Where each step is fitted: {@link #fitAndApply} fits every step on the one dataset it is given, i.e. a
 * party's own data; it never sees the other party's. Steps that are not row-local (zscore, minmax without
 * bounds) make the transformed rows depend on all rows of that party; {@link #dataDependentSteps} lists them so
 * that private methods can refuse them (a record-level sensitivity bound no longer holds after them) unless the
 * statistics they need are released privately and paid for.
 */
public final class Preprocessing {
    private final List<Preprocessor> steps;

    public Preprocessing(List<Preprocessor> steps) {
        this.steps = List.copyOf(steps);
    }

    public static Preprocessing none() {
        return new Preprocessing(List.of());
    }

    /**
     * Parses a comma-separated spec: {@code l1}, {@code l2}, {@code center}, {@code zscore}, {@code minmax}, {@code minmax=LO:HI},
     * {@code clip=BOUND}, or {@code none}.
     *
     * @throws IllegalArgumentException naming the step that cannot be parsed
     */
    public static Preprocessing parse(String spec) {
        List<Preprocessor> out = new ArrayList<>();
        if (spec == null || spec.isBlank() || spec.trim().equals("none")) {
            return new Preprocessing(out);
        }
        for (String raw : spec.split(",")) {
            String s = raw.trim();
            String name = s.contains("=") ? s.substring(0, s.indexOf('=')) : s;
            String arg = s.contains("=") ? s.substring(s.indexOf('=') + 1) : null;
            try {
                switch (name) {
                    case "l1":
                        out.add(new RowL1Normalize());
                        break;
                    case "l2":
                        out.add(new RowL2Normalize());
                        break;
                    case "zscore":
                        out.add(new ZScore());
                        break;
                    case "center":
                        out.add(new Center());
                        break;
                    case "minmax":
                        if (arg == null) {
                            out.add(new MinMax());
                        } else {
                            String[] p = arg.split(":");
                            out.add(new MinMax(Double.parseDouble(p[0]), Double.parseDouble(p[1])));
                        }
                        break;
                    case "scale":
                        if (arg == null) {
                            throw new IllegalArgumentException("scale needs a factor, e.g. scale=28");
                        }
                        out.add(new RowScale(Double.parseDouble(arg)));
                        break;
                    case "clip":
                        if (arg == null) {
                            throw new IllegalArgumentException("clip needs a bound, e.g. clip=1");
                        }
                        out.add(new RowL2Clip(Double.parseDouble(arg)));
                        break;
                    default:
                        throw new IllegalArgumentException("unknown step");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("preprocessing step '" + s + "': not a number: '" + arg + "'"
                        + " (steps: l1, l2, center, zscore, minmax, minmax=LO:HI, clip=BOUND, scale=K, none)", e);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("preprocessing step '" + s + "': " + e.getMessage()
                        + " (steps: l1, l2, center, zscore, minmax, minmax=LO:HI, clip=BOUND, scale=K, none)", e);
            }
        }
        return new Preprocessing(out);
    }

    public List<Preprocessor> steps() {
        return steps;
    }

    /** Fits each step on {@code own} (as transformed by the steps before it) and applies it. */
    public Dataset fitAndApply(Dataset own) {
        Dataset d = own;
        for (Preprocessor p : steps) {
            d = p.fit(d).apply(d);
        }
        return d;
    }

    /** Whether every step multiplies each row by a factor of that row alone (l1, l2, clip=B, scale=K, or none). */
    public boolean rowScalingsOnly() {
        return steps.stream().allMatch(p -> p instanceof RowScaling);
    }

    /**
     * Applies steps that are all row scalings ({@link #rowScalingsOnly}) to the rows {@code rows[0..m)} in place: the
     * values {@link #fitAndApply} gives those rows (each factor from the same sums in the same order), without a matrix
     * in between (an engine's blocks).
     */
    public void scaleRowsInPlace(double[][] rows, int m) {
        if (!rowScalingsOnly()) {
            throw new IllegalStateException("not all row scalings: " + spec());
        }
        for (Preprocessor p : steps) {
            RowScaling s = (RowScaling) p;
            for (int i = 0; i < m; i++) {
                double[] x = rows[i];
                double f = s.factor(x);
                for (int j = 0; j < x.length; j++) {
                    x[j] *= f;
                }
            }
        }
    }

    /**
     * The same for rows held sparse (an engine's compressed blocks): row i's non-zeros are
     * {@code values[rowStart[i] .. rowStart[i+1])}, scaled in place. Each factor is computed from the row's non-zeros
     * alone, which are the sums the dense row gives (a zero adds nothing to a norm), in the same order.
     */
    public void scaleSparseRowsInPlace(int m, int[] rowStart, double[] values) {
        if (!rowScalingsOnly()) {
            throw new IllegalStateException("not all row scalings: " + spec());
        }
        for (Preprocessor p : steps) {
            RowScaling s = (RowScaling) p;
            for (int i = 0; i < m; i++) {
                double f = s.factor(java.util.Arrays.copyOfRange(values, rowStart[i], rowStart[i + 1]));
                for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
                    values[k] *= f;
                }
            }
        }
    }

    /** The specs of the steps that are fitted on the data (not row-local). */
    public List<String> dataDependentSteps() {
        return steps.stream().filter(p -> !p.rowLocal()).map(Preprocessor::spec).toList();
    }

    /** The L2 bound on every row after these steps, if the last bounding step guarantees one; NaN otherwise. */
    public double rowNormBound() {
        double bound = Double.NaN;
        for (Preprocessor p : steps) {
            if (p instanceof RowL2Clip c) {
                bound = c.bound();
            } else if (p instanceof RowL1Normalize || p instanceof RowL2Normalize) {
                bound = 1.0; // ||x||_2 <= ||x||_1 = 1, or ||x||_2 = 1
            } else if (p instanceof RowScale s) {
                bound = bound * s.factor();
            } else {
                bound = Double.NaN;
            }
        }
        return bound;
    }

    public String spec() {
        return steps.isEmpty() ? "none" : String.join(",", steps.stream().map(Preprocessor::spec).toList());
    }
}
