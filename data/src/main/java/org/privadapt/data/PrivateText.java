package org.privadapt.data;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What an error message may say about private rows (issue 46 item 4). A message about bad data names the file, the
 * kind of position and the rule broken; by default it also quotes what it found there (the cell, the label, the row
 * or line number, how many rows or values were bad, a dimension read from the rows). That is right on the party's own
 * screen, but a cluster's driver output lands in shared logs: with the setting {@value #PROPERTY}={@code redact}
 * (system property) or {@value #ENV}={@code redact} (environment variable), or {@code privadapt --redact-messages},
 * every such piece is replaced by {@value #REDACTED}. Schema stays: file names, column names of a header, field and
 * column numbers, variable names, the number of fields a header declares, a dimension that is public, the option
 * names and the class set given with {@code --classes}. Nothing read from the rows stays: no value, no count, no row
 * (line, element, token or byte offset) index. docs/privacy/messages.md.
 *
 * <p>Messages built in the data module pass each private piece through one of the methods below. As a safety net for
 * messages built elsewhere, {@link DataException} also passes its position through {@link #position} and its problem
 * through {@link #problem} when redacting: row, line, element and token numbers, quoted cells after
 * {@code label/target/value/class/uid} or {@code e.g.}, and counts before {@code row(s)/value(s)/label(s)} are
 * redacted there too.
 *
 * <p>Off (the default), every method returns exactly the text a message held before: messages are unchanged byte for
 * byte.
 */
public final class PrivateText {
    /** The system property: {@code -Dprivadapt.messages=redact}. */
    public static final String PROPERTY = "privadapt.messages";
    /** The environment variable: {@code PRIVADAPT_MESSAGES=redact}. */
    public static final String ENV = "PRIVADAPT_MESSAGES";
    /** What replaces a private piece of a message. */
    public static final String REDACTED = "<redacted>";

    /** Set for a scope ({@link #redact}): wins over the property and the environment. */
    private static volatile Boolean override;

    private PrivateText() {
    }

    /**
     * True when messages keep private pieces out: the scope's choice ({@link #redact}), else the system property
     * {@value #PROPERTY}, else the environment variable {@value #ENV}. A value of {@code redact}, {@code on},
     * {@code true} or {@code yes} redacts; unset, empty, {@code plain}, {@code off}, {@code false} or {@code no} does
     * not; any other value redacts (a misspelt setting fails closed).
     */
    public static boolean redacting() {
        Boolean o = override;
        if (o != null) {
            return o;
        }
        String p = System.getProperty(PROPERTY);
        return on(p != null ? p : System.getenv(ENV));
    }

    /** Whether a value of the setting redacts. */
    static boolean on(String setting) {
        if (setting == null) {
            return false;
        }
        return switch (setting.trim().toLowerCase(Locale.ROOT)) {
            case "", "plain", "off", "false", "no" -> false;
            default -> true;
        };
    }

    /** A scope that restores the setting as it was before {@link #redact} when closed. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Redacts (or not) until the returned scope is closed, whatever the property and the environment say: for the
     * command line's {@code --redact-messages} and for tests. Scopes nest; the setting is process-wide.
     */
    public static Scope redact(boolean on) {
        Boolean before = override;
        override = on;
        return () -> override = before;
    }

    /** A cell, a label or a token read from a row, quoted as messages quote it: {@code 'abc'}. */
    public static String quoted(String cell) {
        return redacting() ? REDACTED : "'" + cell + "'";
    }

    /** A value read from the rows, unquoted (a number, a shape): {@code String.valueOf(value)}. */
    public static String value(Object value) {
        return redacting() ? REDACTED : String.valueOf(value);
    }

    /** How many rows, values, labels or bytes of the data a message counts. */
    public static String count(long n) {
        return redacting() ? REDACTED : Long.toString(n);
    }

    /** The number of a row, a line, an element or a token of private data, or a byte offset into it. */
    public static String row(long number) {
        return redacting() ? REDACTED : Long.toString(number);
    }

    /** A dimension: kept when public (declared, or fixed by the format or the header), else redacted like a count. */
    public static String dimension(long d, boolean isPublic) {
        return isPublic || !redacting() ? Long.toString(d) : REDACTED;
    }

    /** A library's own message about the data it failed to read (it may quote lines, sizes or values). */
    public static String foreign(String message) {
        return redacting() ? REDACTED : message;
    }

    // ------------------------------------------------------------------ the safety net for DataException

    private static final Pattern POSITION_NUMBER = Pattern.compile(
            "\\b(rows?|lines?|elements?|tokens?|records?) \\d++(?:\\.\\.\\d++)?+(?! \\(header\\))");
    private static final Pattern QUOTED_CELL = Pattern.compile(
            "\\b(label|labels|target|value|values|class|uid|cell|e\\.g\\.) '[^']*'", Pattern.CASE_INSENSITIVE);
    private static final Pattern BARE_VALUE = Pattern.compile(
            "\\b(label|target|value) [-+]?(\\d[\\w.+-]*|NaN|Infinity)(?![\\w(])");
    private static final Pattern COUNT = Pattern.compile("\\b\\d+(?= (rows?|values?|labels?|cells?)\\(s\\))");

    /**
     * The position of a {@link DataException} as it is shown: unchanged, or when redacting, with the numbers of rows,
     * lines, elements, tokens and records replaced (field and column numbers, and a header's line, which are schema,
     * stay).
     */
    public static String position(String position) {
        if (position == null || !redacting()) {
            return position;
        }
        return POSITION_NUMBER.matcher(position).replaceAll("$1 " + REDACTED);
    }

    /**
     * The problem of a {@link DataException} as it is shown: unchanged, or when redacting, with what messages built
     * outside the data module are known to quote from rows replaced: a quoted cell after label, target, value, class,
     * uid or e.g.; a number after label, target or value; a count before row(s), value(s) or label(s); and a row or line
     * number.
     */
    public static String problem(String problem) {
        if (problem == null || !redacting()) {
            return problem;
        }
        String s = QUOTED_CELL.matcher(problem).replaceAll("$1 " + REDACTED);
        s = BARE_VALUE.matcher(s).replaceAll("$1 " + REDACTED);
        s = COUNT.matcher(s).replaceAll(REDACTED);
        return POSITION_NUMBER.matcher(s).replaceAll("$1 " + REDACTED);
    }
}
