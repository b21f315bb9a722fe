package org.privadapt.cli;

import java.nio.file.Path;
import java.util.List;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.io.DataFiles;
import org.privadapt.data.registry.BenchmarkRegistry;
import org.privadapt.data.registry.DataRoot;
import org.privadapt.data.registry.Suite;
import picocli.CommandLine.Option;

/**
 * How the CLI names data: a file path, or a benchmark reference {@code suite/domain[:split]}
 * (e.g. {@code office-caltech10/amazon}, {@code amazon-reviews/kitchen:test}); options that say how to read files.
 * With {@code --engine spark} ({@link org.privadapt.cli.engine.EngineOptions}) the data are {@code parquet:PATH},
 * {@code csv:PATH} or {@code table:NAME}; in process {@code csv:PATH} is the file PATH, and Parquet files and tables
 * are refused with a pointer to {@code --engine spark}.
 */
public final class DataSpecs {

    @Option(names = "--data-root", paramLabel = "DIR",
            description = "Benchmark data directory (default: $" + DataRoot.ENV + ", else ../shared/data from the project root).")
    Path dataRoot;

    @Option(names = "--features-var", paramLabel = "NAME", description = "MAT files: variable holding the n x d features.")
    String featuresVar;

    @Option(names = "--labels-var", paramLabel = "NAME", description = "MAT files: variable holding the n labels.")
    String labelsVar;

    @Option(names = "--source-features-var", paramLabel = "NAME",
            description = "MAT files: the source's features variable, when it differs from the target's (a file holding "
                    + "both domains, as JDA's X_src/Y_src/X_tar/Y_tar; d x n is recognised).")
    String sourceFeaturesVar;

    @Option(names = "--source-labels-var", paramLabel = "NAME", description = "MAT files: the source's labels variable.")
    String sourceLabelsVar;

    @Option(names = "--target-features-var", paramLabel = "NAME",
            description = "MAT files: the target's features variable (for the target and its evaluation rows).")
    String targetFeaturesVar;

    @Option(names = "--target-labels-var", paramLabel = "NAME", description = "MAT files: the target's labels variable.")
    String targetLabelsVar;

    @Option(names = "--label-column", paramLabel = "COL",
            description = "CSV/TSV/text: label column (name or 1-based number; 'none' for unlabelled data). A file whose "
                    + "header lacks it is refused, except run's --target and target adapt's --data beside an --eval file, "
                    + "read unlabelled (their labels are only needed for evaluation, in files that must hold it). With "
                    + "--engine spark: the label column's name.")
    String labelColumn;

    /** Whether the adaptation target's file may lack a named label column (set by the commands that read a sibling). */
    private boolean targetMayLackLabelColumn;

    @Option(names = "--categorical", paramLabel = "reject|one-hot", defaultValue = "reject",
            description = "CSV/TSV/text: non-numeric columns are rejected (default) or one-hot encoded.")
    String categorical;

    @Option(names = "--missing", paramLabel = "error|drop", defaultValue = "error",
            description = "CSV/TSV/text: a missing value ('', '?', 'NA') is an error (default) or drops its row.")
    String missing;

    @Option(names = "--drop-columns", split = ",", paramLabel = "COL", description = "CSV/TSV/text: columns to ignore.")
    List<String> dropColumns = List.of();

    @Option(names = "--text-column", paramLabel = "COL",
            description = "CSV/TSV: a column of free text (name or 1-based number) encoded into features by --param encoder "
                    + "(bow, the default: the hashed bag of words, 4,096 features; minilm: the frozen pretrained sentence "
                    + "encoder, 384, run by the encoders jar), placed after the other feature columns. A row-local public map: "
                    + "nothing is fitted on the rows. An empty field is an empty text; NA or ? a missing one (an error, or "
                    + "--missing drop). Read in process (not with --engine spark or stream); for every method and command "
                    + "that reads CSV files.")
    String textColumn;

    @Option(names = "--index-base", paramLabel = "0|1", description = "SVMlight: feature indices are 0- or 1-based (default: detect).")
    Integer indexBase;

    @Option(names = "--dimension", paramLabel = "D", defaultValue = "0", description = "SVMlight: number of features (default: largest index).")
    int dimension;

    @Option(names = "--no-header", description = "CSV/TSV/text: the first line is data, not column names.")
    boolean noHeader;

    private BenchmarkRegistry registry;

    /** {@code --param encoder=NAME}: how the text suites' texts become features (bow, the default, or minilm). */
    public static final String ENCODER_PARAM = "encoder";

    /**
     * Encodes the text suites' texts with the encoder {@code name} ({@code --param encoder}; null: the hashed bag of
     * words), found by ServiceLoader (the encoders jar, which the launcher runs when {@code encoder=minilm} is asked),
     * cached by content, with a progress bar on standard error when {@code showProgress}.
     *
     * @throws UsageException (one line) for an encoder that is not on the classpath
     */
    public void useTextEncoder(String name, boolean showProgress) {
        org.privadapt.data.text.TextEncoding enc;
        try {
            enc = org.privadapt.data.text.TextEncoding.named(name, (task, total) -> {
                Progress p = Progress.start(task, total, showProgress && total >= 200);
                return new org.privadapt.data.text.EncodingProgress.Display() {
                    @Override
                    public void done(int k) {
                        p.stepTo(k);
                    }

                    @Override
                    public void close() {
                        p.close();
                    }
                };
            });
        } catch (IllegalArgumentException e) {
            throw new UsageException("--param " + e.getMessage(), e);
        }
        registry().withTextEncoding(enc);
    }

    public BenchmarkRegistry registry() {
        if (registry == null) {
            registry = BenchmarkRegistry.standard(DataRoot.resolve(dataRoot));
        }
        return registry;
    }

    /**
     * Lets the adaptation target's file ({@link Role#TARGET}) lack a named {@code --label-column} and be read unlabelled:
     * for a command that also reads a file that must hold the column (run's source, target adapt's --eval), where a
     * misspelt name is refused; elsewhere a named column the header lacks is refused (issue 46).
     */
    public DataSpecs allowUnlabelledTarget() {
        targetMayLackLabelColumn = true;
        return this;
    }

    /** The label column as given (null when not), for engines that read named columns (refused with --text-column). */
    public String labelColumn() {
        requireNoTextColumn("--engine spark");
        return labelColumn;
    }

    /** {@code --text-column} as given, or null. */
    public String textColumn() {
        return textColumn;
    }

    /**
     * Refuses {@code --text-column} where files are not loaded whole in process (the Spark engine, the streamed one):
     * their texts are encoded by the in-process loader only.
     */
    public void requireNoTextColumn(String engine) {
        if (textColumn != null) {
            throw new UsageException("--text-column " + textColumn + ": the text column is encoded in process (--engine "
                    + "inprocess, the default); " + engine + " reads numeric feature columns only");
        }
    }

    public DataFiles.Options fileOptions() {
        return fileOptions(Role.SOURCE, false);
    }

    /**
     * How to read a file in a role: the role's own MAT variables override the generic ones; the adaptation target
     * may lack its labels (a labelled source beside an unlabelled target), the source and the evaluation rows may not.
     */
    public DataFiles.Options fileOptions(Role role, boolean roleSpecific) {
        String fv = featuresVar;
        String lv = labelsVar;
        if (roleSpecific) {
            String rf = role == Role.SOURCE ? sourceFeaturesVar : targetFeaturesVar;
            String rl = role == Role.SOURCE ? sourceLabelsVar : targetLabelsVar;
            if (rf != null) {
                fv = rf;
                lv = rl; // the generic labels variable belongs with the generic features
            } else if (rl != null) {
                lv = rl;
            }
        }
        boolean labelsOptional = roleSpecific && (role == Role.TARGET || role == Role.PREDICTION);
        boolean oneHot;
        switch (categorical) {
            case "reject": oneHot = false; break;
            case "one-hot": oneHot = true; break;
            default: throw new UsageException("--categorical must be 'reject' or 'one-hot', got '" + categorical + "'");
        }
        boolean drop;
        switch (missing) {
            case "error": drop = false; break;
            case "drop": drop = true; break;
            default: throw new UsageException("--missing must be 'error' or 'drop', got '" + missing + "'");
        }
        if (indexBase != null && indexBase != 0 && indexBase != 1) {
            throw new UsageException("--index-base must be 0 or 1, got " + indexBase);
        }
        if (dimension < 0) {
            throw new UsageException("--dimension must be at least 0 (0: the largest feature index), got " + dimension);
        }
        boolean namedLabelOptional = roleSpecific && role == Role.TARGET && targetMayLackLabelColumn;
        return new DataFiles.Options(fv, lv, labelColumn, oneHot, drop, dropColumns, indexBase,
                dimension, noHeader ? Boolean.FALSE : null, labelsOptional, namedLabelOptional);
    }

    /** The dataset, refused when a text encoder was asked for and the suite's rows are not its texts' features. */
    private static Dataset encoded(BenchmarkRegistry reg, Dataset d, String spec) {
        org.privadapt.data.text.TextEncoding.Identity want = reg.textEncoding().identity();
        if (!want.equals(org.privadapt.data.text.TextEncoding.Identity.BOW)
                && !org.privadapt.data.text.TextEncoding.identity(d).equals(want)) {
            throw notText(reg, spec);
        }
        return d;
    }

    private static UsageException notText(BenchmarkRegistry reg, String spec) {
        return new UsageException("--param encoder=" + reg.textEncoding().name() + ": only a text suite's texts "
                + "(iu-chest-xray-uda) and a CSV file's --text-column are encoded; " + spec + " is neither (its features are "
                + "read as they are): name its text column with --text-column, or drop the parameter");
    }

    /** Which split of a benchmark domain a role reads when the reference names none. */
    /**
     * SOURCE, TARGET (labels optional: no method reads an adaptation target's labels), EVALUATION (labelled), and
     * PREDICTION: the rows {@code target predict} labels, read like EVALUATION but with labels optional (accuracy is
     * reported only when they are there).
     */
    public enum Role { SOURCE, TARGET, EVALUATION, PREDICTION }

    /**
     * Loads a file or a benchmark reference. For a reference without a split, the suite's protocol decides:
     * the source reads its training split, the target its adaptation split, the evaluation its test split.
     */
    public Dataset load(String spec, Role role) throws DataException {
        if (spec.startsWith("parquet:") || spec.startsWith("table:")) {
            throw new UsageException("--data " + spec + ": Parquet files and Spark tables are read with --engine spark "
                    + "(with --feature-columns; docs/spark.md)");
        }
        if (spec.startsWith("csv:")) {
            spec = spec.substring("csv:".length());
        }
        BenchmarkRegistry reg = registry();
        if (textColumn != null && reg.isRef(spec)) {
            throw new UsageException("--text-column " + textColumn + ": reads a column of a CSV or TSV file; " + spec + " is a "
                    + "benchmark domain (a text suite's texts are encoded by --param encoder alone)");
        }
        if (reg.isRef(spec)) {
            if (spec.indexOf(':') < 0) {
                Suite s = reg.suite(spec.substring(0, spec.indexOf('/')));
                String split = switch (role) {
                    case SOURCE -> s.trainSplit();
                    case TARGET -> s.adaptSplit();
                    case EVALUATION, PREDICTION -> s.evalSplit();
                };
                return encoded(reg, reg.loadRef(spec + ":" + split), spec);
            }
            return encoded(reg, reg.loadRef(spec), spec);
        }
        Path p = Path.of(spec);
        String domain = p.getFileName() == null ? spec : p.getFileName().toString();
        if (textColumn != null) {
            return org.privadapt.data.io.TextColumnTable.load(p, domain, fileOptions(role, true), textColumn, reg.textEncoding());
        }
        if (!reg.textEncoding().identity().equals(org.privadapt.data.text.TextEncoding.Identity.BOW)) {
            throw notText(reg, spec);
        }
        return DataFiles.load(p, domain, fileOptions(role, true));
    }
}
