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
     * @param labelsOptional when no label column is named and none is found (or a named MAT labels variable is
     *                    absent), read the file unlabelled instead of failing (an adaptation target, whose labels no
     *                    method reads)
     * @param namedLabelOptional tables: a label column named ({@code labelColumn}) but absent from the header leaves
     *                    the file unlabelled instead of being refused; only for an adaptation target read beside a file
     *                    that must hold the column (run's source), so that a misspelt name is still refused there
     */
    public record Options(String featuresVar, String labelsVar, String labelColumn, boolean categorical,
                          boolean dropMissing, List<String> dropColumns, Integer indexBase, int dimension,
                          Boolean header, boolean labelsOptional, boolean namedLabelOptional) {
        public static final Options DEFAULT = new Options(null, null, null, false, false, List.of(), null, 0, null, false);

        public Options(String featuresVar, String labelsVar, String labelColumn, boolean categorical, boolean dropMissing,
                       List<String> dropColumns, Integer indexBase, int dimension, Boolean header) {
            this(featuresVar, labelsVar, labelColumn, categorical, dropMissing, dropColumns, indexBase, dimension, header, false);
        }

        public Options(String featuresVar, String labelsVar, String labelColumn, boolean categorical, boolean dropMissing,
                       List<String> dropColumns, Integer indexBase, int dimension, Boolean header, boolean labelsOptional) {
            this(featuresVar, labelsVar, labelColumn, categorical, dropMissing, dropColumns, indexBase, dimension, header,
                    labelsOptional, false);
        }
    }

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
            String label = LabelColumns.resolve(file, table.columns(), format.header(), o);
            TableEncoder.Options to = TableEncoder.Options.labelled("none".equalsIgnoreCase(label) ? null : label)
                    .withCategorical(o.categorical() ? TableEncoder.Categorical.ONE_HOT : TableEncoder.Categorical.REJECT)
                    .withMissing(o.dropMissing() ? TableEncoder.Missing.DROP_ROW : TableEncoder.Missing.ERROR)
                    .withDrop(o.dropColumns());
            return TableEncoder.encode(table, domain, to, format.separator().name().toLowerCase(Locale.ROOT) + " text");
        }
        Files2.requireReadable(file);
        throw new DataException(file, null, "unknown file type; expected .mat, .svmlight, .csv, .tsv or whitespace text (.txt/.asc/.data)");
    }

    /** File name extensions this class reads. */
    public static final Set<String> EXTENSIONS = Set.of(".mat", ".svmlight", ".svm", ".libsvm", ".csv", ".tsv", ".tab",
            ".txt", ".asc", ".dat", ".data");
}
