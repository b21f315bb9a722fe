package org.privadapt.data.io;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.Labels;
import org.privadapt.data.PrivateText;
import org.privadapt.data.Provenance;
import org.privadapt.data.RealTargets;
import org.privadapt.math.CsrMatrix;

/**
 * Loads SVMlight/LibSVM text ({@code label idx:value idx:value ... [# comment]}, optional {@code qid:n}) into
 * a sparse dataset. Indices are 0-based or 1-based as told, or detected: a file that uses index 0 anywhere is
 * 0-based, otherwise 1-based (the LibSVM convention), and the provenance records which was assumed. Integer
 * labels become class labels (sorted numerically, so -1 comes before +1); other labels become real targets.
 */
public final class SvmLightLoader {
    private SvmLightLoader() {
    }

    public enum IndexBase { AUTO, ZERO, ONE }

    /**
     * @param dimension the number of features, or 0 to use the largest index seen
     */
    public record Options(IndexBase base, int dimension) {
        public static final Options AUTO = new Options(IndexBase.AUTO, 0);
    }

    public static Dataset load(Path file, String domain, Options options) throws DataException {
        byte[] bytes = Files2.readAll(file);
        String text = new String(bytes, StandardCharsets.UTF_8);
        int lineCount = 0;
        // pass 1: count rows and entries
        int rows = 0;
        long entries = 0;
        for (int p = 0; p < text.length(); ) {
            int e = text.indexOf('\n', p);
            if (e < 0) {
                e = text.length();
            }
            String line = stripComment(text, p, e);
            if (!line.isBlank()) {
                rows++;
                entries += countTokens(line) - 1;
            }
            p = e + 1;
        }
        double[] labels = new double[rows];
        int[] start = new int[rows + 1];
        int[] idx = new int[(int) entries];
        double[] val = new double[(int) entries];
        int row = 0;
        int k = 0;
        int minIndex = Integer.MAX_VALUE;
        int maxIndex = -1;
        for (int p = 0; p < text.length(); ) {
            int e = text.indexOf('\n', p);
            if (e < 0) {
                e = text.length();
            }
            lineCount++;
            String line = stripComment(text, p, e);
            p = e + 1;
            if (line.isBlank()) {
                continue;
            }
            String[] tok = line.trim().split("\\s+");
            labels[row] = parseNumber(file, lineCount, 1, tok[0], "label");
            int rowBegin = k;
            for (int t = 1; t < tok.length; t++) {
                String s = tok[t];
                int colon = s.indexOf(':');
                if (colon <= 0 || colon == s.length() - 1) {
                    throw new DataException(file, where(lineCount, t + 1), PrivateText.quoted(s) + " is not index:value");
                }
                String key = s.substring(0, colon);
                if (key.equals("qid")) {
                    continue;
                }
                int index;
                try {
                    index = Integer.parseInt(key);
                } catch (NumberFormatException ex) {
                    throw new DataException(file, where(lineCount, t + 1), PrivateText.quoted(key) + " is not a feature index");
                }
                if (index < 0) {
                    throw new DataException(file, where(lineCount, t + 1), "negative feature index " + PrivateText.value(index));
                }
                double v = parseNumber(file, lineCount, t + 1, s.substring(colon + 1), "value");
                idx[k] = index;
                val[k++] = v;
                minIndex = Math.min(minIndex, index);
                maxIndex = Math.max(maxIndex, index);
            }
            sortAndCheckRow(file, lineCount, idx, val, rowBegin, k);
            start[++row] = k;
        }
        boolean zeroBased;
        String baseNote;
        switch (options.base()) {
            case ZERO:
                zeroBased = true;
                baseNote = "indices 0-based (stated)";
                break;
            case ONE:
                zeroBased = false;
                baseNote = "indices 1-based (stated)";
                if (minIndex == 0) {
                    throw new DataException(file, null, "feature index 0 found, but indices were declared 1-based");
                }
                break;
            default:
                zeroBased = minIndex == 0;
                baseNote = zeroBased ? "indices 0-based (detected: index 0 used)" : "indices 1-based (assumed: no index 0 found)";
        }
        if (!zeroBased) {
            for (int t = 0; t < k; t++) {
                idx[t]--;
            }
            maxIndex--;
        }
        int d = options.dimension() > 0 ? options.dimension() : maxIndex + 1;
        if (maxIndex >= d) {
            throw new DataException(file, null, "feature index " + PrivateText.value(maxIndex + (zeroBased ? 0 : 1))
                    + " exceeds the stated dimension " + d);
        }
        CsrMatrix x = new CsrMatrix(rows, d, start, Arrays.copyOf(idx, k), Arrays.copyOf(val, k));
        boolean integral = true;
        for (double v : labels) {
            integral &= v == Math.rint(v);
        }
        Labels y = integral ? ClassLabels.fromValues(labels) : new RealTargets(labels, "label");
        Provenance prov = Provenance.of(new Provenance.SourceFile(file.toString(), Files2.sha256(bytes), "SVMlight",
                rows + " rows, " + d + " features, " + k + " non-zeros, " + baseNote));
        Dataset ds = new Dataset(domain, x, y, null, prov).requireFinite();
        // without a stated dimension d is the largest index seen: a function of the rows (PublicFacts)
        return options.dimension() > 0 ? ds : ds.withSchemaFromRows();
    }

    /** A token's position: its line and its place on the line (both read from the rows: redacted with the rest). */
    private static String where(int line, int token) {
        return "line " + PrivateText.row(line) + ", token " + PrivateText.row(token);
    }

    private static String stripComment(String text, int from, int to) {
        int end = to;
        for (int i = from; i < to; i++) {
            if (text.charAt(i) == '#') {
                end = i;
                break;
            }
        }
        if (end > from && text.charAt(end - 1) == '\r') {
            end--;
        }
        return text.substring(from, end);
    }

    private static int countTokens(String line) {
        int n = 0;
        boolean in = false;
        for (int i = 0; i < line.length(); i++) {
            boolean ws = Character.isWhitespace(line.charAt(i));
            if (!ws && !in) {
                n++;
            }
            in = !ws;
        }
        return n;
    }

    private static double parseNumber(Path file, int line, int token, String s, String what) throws DataException {
        double v;
        try {
            v = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new DataException(file, where(line, token), what + " " + PrivateText.quoted(s) + " is not a number");
        }
        if (!Double.isFinite(v)) {
            throw new DataException(file, where(line, token), what + " " + PrivateText.quoted(s) + " is not a finite number");
        }
        return v;
    }

    private static void sortAndCheckRow(Path file, int line, int[] idx, double[] val, int from, int to) throws DataException {
        boolean sorted = true;
        for (int t = from + 1; t < to; t++) {
            sorted &= idx[t] > idx[t - 1];
        }
        if (!sorted) {
            for (int a = from + 1; a < to; a++) {
                int c = idx[a];
                double v = val[a];
                int b = a - 1;
                while (b >= from && idx[b] > c) {
                    idx[b + 1] = idx[b];
                    val[b + 1] = val[b];
                    b--;
                }
                idx[b + 1] = c;
                val[b + 1] = v;
            }
            for (int t = from + 1; t < to; t++) {
                if (idx[t] == idx[t - 1]) {
                    throw new DataException(file, "line " + PrivateText.row(line), "feature index " + PrivateText.value(idx[t])
                            + " appears twice");
                }
            }
        }
    }
}
