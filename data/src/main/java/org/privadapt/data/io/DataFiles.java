package org.privadapt.data.io;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;

/**
 * Loads one data file by its extension: {@code .mat} (MAT v5), {@code .svmlight/.svm/.libsvm} (SVMlight),
 * {@code .csv}, {@code .tsv}, and whitespace text ({@code .txt}, {@code .asc}, {@code .dat}, {@code .data}).
 */
public final class DataFiles {
    private DataFiles() {
    }

    /**
     * Everything a user can say about how to read a file; null fields mean "find out" or "default".
     *
     * @param featuresVar MAT: name of the feature matrix
     * @param labelsVar   MAT: name of the label vector
     * @param labelColumn tables: label column name or 1-based number; "none" for unlabelled; null to look for
     *                    a column named label, labels, class, y or target
     * @param categorical tables: one-hot encode non-numeric columns instead of rejecting them
     * @param dropMissing tables: drop rows with missing values instead of failing
     * @param dropColumns tables: columns to ignore
     * @param indexBase   SVMlight: 0, 1 or null for auto
     * @param dimension   SVMlight: number of features, 0 for the largest index seen
     * @param header      tables: whether the first line is a header (null: yes)
     * @param labelsOptional when the label column or variable (named or looked for) is absent, read the file
     *                    unlabelled instead of failing (an adaptation target, whose labels no method reads)
     */
    public record Options(String featuresVar, String labelsVar, String labelColumn, boolean categorical,
                          boolean dropMissing, List<String> dropColumns, Integer indexBase, int dimension,
                          Boolean header, boolean labelsOptional) {
        public static final Options DEFAULT = new Options(null, null, null, false, false, List.of(), null, 0, null, false);

        public Options(String featuresVar, String labelsVar, String labelColumn, boolean categorical, boolean dropMissing,
                       List<String> dropColumns, Integer indexBase, int dimension, Boolean header) {
            this(featuresVar, labelsVar, labelColumn, categorical, dropMissing, dropColumns, indexBase, dimension, header, false);
        }
    }

    private static final List<String> LABEL_NAMES = List.of("label", "labels", "class", "target", "y");

    public static Dataset load(Path file, String domain, Options o) throws DataException {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".mat")) {
            return MatLoader.load(file, domain, new MatLoader.Options(o.featuresVar(), o.labelsVar(), o.labelsOptional()));
        }
        if (name.endsWith(".svmlight") || name.endsWith(".svm") || name.endsWith(".libsvm")) {
            SvmLightLoader.IndexBase base = o.indexBase() == null ? SvmLightLoader.IndexBase.AUTO
                    : o.indexBase() == 0 ? SvmLightLoader.IndexBase.ZERO : SvmLightLoader.IndexBase.ONE;
            return SvmLightLoader.load(file, domain, new SvmLightLoader.Options(base, o.dimension()));
        }
        if (name.endsWith(".csv") || name.endsWith(".tsv") || name.endsWith(".tab") || name.endsWith(".txt")
                || name.endsWith(".asc") || name.endsWith(".dat") || name.endsWith(".data")) {
            TextTable.Format format = TextTable.Format.forFileName(name);
            if (o.header() != null) {
                format = format.withHeader(o.header());
            }
            TextTable table = TextTable.read(file, format);
            String label = o.labelColumn();
            if (label == null) {
                for (String wanted : LABEL_NAMES) { // in this order of preference
                    for (String c : table.columns()) {
                        if (label == null && c.toLowerCase(Locale.ROOT).equals(wanted)) {
                            label = c;
                        }
                    }
                }
                if (label == null && !o.labelsOptional()) {
                    throw new DataException(file, null, "no column named label, labels, class, target or y; name the label column "
                            + "with --label-column (or --label-column none for unlabelled data); columns are " + table.columns());
                }
                if (label == null) {
                    label = "none";
                }
            } else if (o.labelsOptional() && !"none".equalsIgnoreCase(label) && !hasColumn(table, label)) {
                label = "none"; // an unlabelled target beside a labelled source
            }
            TableEncoder.Options to = TableEncoder.Options.labelled("none".equalsIgnoreCase(label) ? null : label)
                    .withCategorical(o.categorical() ? TableEncoder.Categorical.ONE_HOT : TableEncoder.Categorical.REJECT)
                    .withMissing(o.dropMissing() ? TableEncoder.Missing.DROP_ROW : TableEncoder.Missing.ERROR)
                    .withDrop(o.dropColumns());
            return TableEncoder.encode(table, domain, to, format.separator().name().toLowerCase(Locale.ROOT) + " text");
        }
        Files2.requireReadable(file);
        throw new DataException(file, null, "unknown file type; expected .mat, .svmlight, .csv, .tsv or whitespace text (.txt/.asc/.data)");
    }

    private static boolean hasColumn(TextTable table, String label) {
        if (table.columns().contains(label)) {
            return true;
        }
        try {
            int k = Integer.parseInt(label.trim());
            return k >= 1 && k <= table.columns().size();
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** File name extensions this class reads. */
    public static final Set<String> EXTENSIONS = Set.of(".mat", ".svmlight", ".svm", ".libsvm", ".csv", ".tsv", ".tab",
            ".txt", ".asc", ".dat", ".data");
}
