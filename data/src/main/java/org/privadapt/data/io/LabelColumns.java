package org.privadapt.data.io;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.privadapt.data.DataException;

/**
 * Which column of a text table holds the labels, as the whole-file loader ({@link DataFiles#load}) and the streaming
 * reader ({@link RowChunks#open}) both find it from the header alone: the column named by {@code --label-column}, else
 * one named label, labels, class, target or y. A named column that the header does not hold is refused (issue 46:
 * a misspelt label column must not be read as one more feature and released), unless the options say the file may
 * lack it ({@link DataFiles.Options#namedLabelOptional}: an adaptation target beside a file that must hold it).
 */
final class LabelColumns {
    /** The column names looked for when none is named, in this order of preference. */
    static final List<String> NAMES = List.of("label", "labels", "class", "target", "y");

    private LabelColumns() {
    }

    /**
     * The label column as {@link TextTable#columnIndex} takes it (a name or a 1-based number), or {@code "none"} for
     * rows read unlabelled.
     *
     * @param header whether {@code columns} are a header line's (the position named in a refusal)
     * @throws DataException naming the file, the column asked for and the columns there are (with a did-you-mean)
     */
    static String resolve(Path file, List<String> columns, boolean header, DataFiles.Options o) throws DataException {
        String label = o.labelColumn();
        if (label == null) {
            for (String wanted : NAMES) {
                for (String c : columns) {
                    if (c.toLowerCase(Locale.ROOT).equals(wanted)) {
                        return c;
                    }
                }
            }
            if (!o.labelsOptional()) {
                throw new DataException(file, null, "no column named label, labels, class, target or y; name the label column "
                        + "with --label-column (or --label-column none for unlabelled data); columns are " + columns);
            }
            return "none";
        }
        if ("none".equalsIgnoreCase(label)) {
            return "none";
        }
        if (TextTable.find(columns, label) >= 0) {
            return label;
        }
        if (o.namedLabelOptional()) {
            return "none"; // an unlabelled target beside a file that holds the column
        }
        String hint = didYouMean(label, columns);
        throw new DataException(file, header ? "line 1 (header)" : null, "no column '" + label + "' for --label-column"
                + (hint.isEmpty() ? "" : " (did you mean '" + hint + "'?)") + "; the " + (header ? "header's " : "") + columns.size()
                + " columns are " + list(columns) + "; name one of them, or --label-column none for unlabelled rows");
    }

    /** The columns, the first 20 of a wide table. */
    static String list(List<String> columns) {
        return columns.size() <= 20 ? columns.toString()
                : columns.subList(0, 20).toString().replace("]", ", ... (" + columns.size() + " columns)]");
    }

    /**
     * The column closest to {@code asked} (case aside) when it is within one edit per three characters (two at most),
     * else "" (a number, or a short name, suggests nothing).
     */
    static String didYouMean(String asked, List<String> columns) {
        String a = asked.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : columns) {
            int d = distance(a, c.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        int allowed = a.matches("\\d+") ? 0 : Math.min(2, a.length() / 3);
        return best != null && bestDistance <= allowed ? best : "";
    }

    /** Levenshtein distance, with a swap of two neighbours counted as one edit. */
    static int distance(String s, String t) {
        int[][] d = new int[s.length() + 1][t.length() + 1];
        for (int i = 0; i <= s.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= t.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= s.length(); i++) {
            for (int j = 1; j <= t.length(); j++) {
                int cost = s.charAt(i - 1) == t.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && s.charAt(i - 1) == t.charAt(j - 2) && s.charAt(i - 2) == t.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[s.length()][t.length()];
    }
}
