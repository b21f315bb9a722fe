package org.privadapt.data.preprocess;

import java.util.Locale;
import org.privadapt.data.Dataset;
import org.privadapt.data.Provenance;
import org.privadapt.math.DenseMatrix;

/**
 * The one default preprocessing policy of {@code run}, {@code bench} and {@code demo}, used when the user gives no
 * {@code --preprocess}.
 *
 * <p><b>Private methods</b> get {@code l2,scale=K} with {@code K = floor(sqrt(d))}: every row to L2 norm K. It is
 * row-local (nothing is fitted on a protected party's rows, so record-level sensitivities hold), it bounds every row
 * by K (the row bound PRIMA and DPOT use), and it keeps features of order one, which DP-SGD's default clip and
 * learning rate suit (K = 28 for 800 SURF words, 70 for 5000 review words: measured best in docs/results). The
 * choice depends only on the dimension, never on a protected party's values.
 *
 * <p><b>Non-private methods</b> follow the kind of data ({@link Kind#detect}): per-feature {@code zscore} for
 * tabular data, {@code l2} (each row to unit norm, JDA's protocol) for dense real-valued features such as deep
 * features and pixels, {@code l1,zscore} for dense count histograms (the GFK/CORAL/JDA protocol for SURF
 * bag-of-visual-words) and {@code none} for sparse count data (text, whose zero entries a z-score would densify).
 * Measured with source-only/CORAL logistic regression (docs/results/deep-features.md): on MNIST->USPS l2 gives
 * 42.4 % against 31.5 % with zscore; on the GoogLeNet and DeCAF6 Office features they are within a point.
 */
public final class DefaultPreprocessing {
    private DefaultPreprocessing() {
    }

    /** What the features are, as far as the policy cares. */
    public enum Kind {
        /** Dense non-negative integer counts (bag-of-visual-words histograms). */
        COUNT_HISTOGRAMS("dense count histograms"),
        /** Sparse counts (bag-of-words text, SVMlight). */
        SPARSE_COUNTS("sparse counts"),
        /** Dense real-valued features read from a matrix file (deep features, pixels). */
        DENSE_FEATURES("dense real-valued features"),
        /** Columns of a table (CSV, UCI text) or generated data: mixed scales and signs. */
        TABULAR("tabular columns");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }

        /**
         * The kind of a dataset, from its format and values: sparse storage or a sparse text format gives
         * {@link #SPARSE_COUNTS}; a table file or generated data {@link #TABULAR}; a matrix file (MAT) with only
         * non-negative integers {@link #COUNT_HISTOGRAMS}, otherwise {@link #DENSE_FEATURES}.
         */
        public static Kind detect(Dataset d) {
            if (d.features().isSparse()) {
                return SPARSE_COUNTS;
            }
            String format = d.provenance().files().isEmpty() ? "" : d.provenance().files().get(0).format();
            format = format == null ? "" : format.toLowerCase(Locale.ROOT);
            if (format.contains("svmlight")) {
                return SPARSE_COUNTS;
            }
            if (!format.startsWith("mat")) {
                return TABULAR;
            }
            DenseMatrix x = d.features().toDense();
            boolean counts = true;
            for (double v : x.data()) {
                if (v < 0) {
                    return TABULAR;
                }
                if (v != Math.rint(v)) {
                    counts = false;
                }
            }
            return counts ? COUNT_HISTOGRAMS : DENSE_FEATURES;
        }
    }

    /** A default and why it was chosen (printed by the CLI, recorded in reports). */
    public record Choice(String spec, String reason) {
        public Preprocessing preprocessing() {
            return Preprocessing.parse(spec);
        }
    }

    /** The row norm private methods get by default: floor(sqrt(d)), at least 1. */
    public static long privateScale(int dimension) {
        return Math.max(1, (long) Math.floor(Math.sqrt(dimension)));
    }

    /**
     * The default for a method family on data of this dimension; {@code source} (whose values are read only when
     * no private method is involved) decides the kind.
     */
    public static Choice choose(Dataset source, boolean privateMethod) {
        return choose(source, privateMethod, false);
    }

    /**
     * As {@link #choose(Dataset, boolean)}; under paper 003's supervised protocol ({@code supervisedProtocol}: a split
     * of the target's labelled rows was asked for) the methods scale with constants of the public source themselves,
     * so the default is none for classes too.
     */
    public static Choice choose(Dataset source, boolean privateMethod, boolean supervisedProtocol) {
        if (supervisedProtocol && !(source.labels().orElse(null) instanceof org.privadapt.data.RealTargets)) {
            return new Choice("none", "paper 003's supervised protocol: its methods standardise with constants of the public "
                    + "source (row-local)");
        }
        if (source.labels().orElse(null) instanceof org.privadapt.data.RealTargets) {
            return new Choice("none", "regression: paper 003's methods scale rows and targets with constants of the public "
                    + "source (row-local), and row normalisation would change the regression function");
        }
        if (privateMethod) {
            return forPrivate(source.dimension());
        }
        return forKind(Kind.detect(source));
    }

    /** The private default (depends on the dimension only). */
    public static Choice forPrivate(int dimension) {
        long k = privateScale(dimension);
        return new Choice("l2,scale=" + k, "private methods: every row to L2 norm floor(sqrt(d)) = " + k
                + ", row-local, so nothing is fitted on protected rows");
    }

    /** The non-private default for a kind of data. */
    public static Choice forKind(Kind kind) {
        return switch (kind) {
            case COUNT_HISTOGRAMS -> new Choice("l1,zscore", kind.description()
                    + ": rows to sum 1, then per-feature z-score (the GFK/CORAL/JDA protocol)");
            case SPARSE_COUNTS -> new Choice("none", kind.description() + ": left as they are (a z-score would densify them)");
            case DENSE_FEATURES -> new Choice("l2", kind.description() + ": every row to unit L2 norm (JDA's protocol)");
            case TABULAR -> new Choice("zscore", kind.description() + ": per-feature z-score");
        };
    }
}
