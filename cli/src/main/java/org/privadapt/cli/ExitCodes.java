package org.privadapt.cli;

/** The process exit codes of the {@code privadapt} command (also listed in the README). */
public final class ExitCodes {
    /** Success. */
    public static final int OK = 0;
    /** An unexpected internal error (a bug): the message and stack trace go to standard error. */
    public static final int INTERNAL = 1;
    /** Bad command line: unknown option, missing or invalid argument value. */
    public static final int USAGE = 2;
    /**
     * Bad input data: missing, unreadable or malformed file, non-finite values, mismatched shapes (also data whose
     * dimension does not fit a valid artifact: the data are what is wrong, as in {@code run}).
     */
    public static final int DATA = 3;
    /** A privacy budget refused the release: nothing was spent, drawn or written. */
    public static final int BUDGET = 4;
    /** An artifact or ledger is invalid: malformed or truncated, tampered with (checksum), of another version or kind. */
    public static final int ARTIFACT = 5;
    /**
     * The engine asked for ({@code --engine spark}) cannot run here: Apache Spark or the Spark engine is not on the
     * classpath (the plain CLI jar has neither: submit the Spark jar with {@code spark-submit}, or run {@code ./privadapt}),
     * a {@code spark://} master does not answer, or Spark does not start. Nothing was read, spent or written.
     */
    public static final int ENGINE = 6;
    /**
     * The target's rows are encoded by another text encoder than the source's release was trained on (another
     * {@code --param encoder}, or the same name with other weights), or a party's rows otherwise than a two-party
     * artifact records ({@link TextEncoderRecords}): nothing was adapted, spent or written.
     */
    public static final int ENCODER = 7;

    private ExitCodes() {
    }
}
