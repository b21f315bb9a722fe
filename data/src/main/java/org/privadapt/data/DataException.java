package org.privadapt.data;

import java.nio.file.Path;

/**
 * Bad input data: a missing, unreadable, truncated or malformed file, a non-finite value, a shape that does not
 * fit. The message is one line naming the file and the position (line, column, byte offset, row or variable)
 * where the problem was found, e.g. {@code data.csv:line 17, field 3: 'abc' is not a number}.
 *
 * <p>With messages redacted ({@link PrivateText#redacting}), the position and the problem are shown through
 * {@link PrivateText#position} and {@link PrivateText#problem}, e.g. {@code data.csv:line <redacted>, field 3:
 * <redacted> is not a number}: the file, the kind of position and the rule stay, the row's number and value do not.
 */
public class DataException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String file;
    private final String position;

    public DataException(String file, String position, String problem) {
        this(file, position, problem, null);
    }

    public DataException(String file, String position, String problem, Throwable cause) {
        this(file, PrivateText.position(position), PrivateText.problem(problem), cause, true);
    }

    private DataException(String file, String position, String problem, Throwable cause, boolean shown) {
        super(format(file, position, problem), cause);
        this.file = file;
        this.position = position;
    }

    public DataException(Path file, String position, String problem) {
        this(file == null ? null : file.toString(), position, problem, null);
    }

    public DataException(Path file, String position, String problem, Throwable cause) {
        this(file == null ? null : file.toString(), position, problem, cause);
    }

    private static String format(String file, String position, String problem) {
        StringBuilder sb = new StringBuilder();
        if (file != null && !file.isEmpty()) {
            sb.append(file);
        }
        if (position != null && !position.isEmpty()) {
            sb.append(sb.length() > 0 ? ":" : "").append(position);
        }
        if (sb.length() > 0) {
            sb.append(": ");
        }
        return sb.append(problem.replace('\n', ' ')).toString();
    }

    /** The file the problem is in, or null when it is not tied to one file. */
    public String file() {
        return file;
    }

    /** Where in the file, or null (as shown: redacted when messages are, {@link PrivateText#position}). */
    public String position() {
        return position;
    }
}
