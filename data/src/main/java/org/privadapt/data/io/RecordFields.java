package org.privadapt.data.io;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/** One record as {@link RecordReader} hands it out (valid until the next one is read). */
interface RecordFields {
    /** The loader's missing values. */
    Set<String> MISSING = Set.of("", "?", "NA");

    int size();

    /** The field's text: trimmed ({@code String.trim}) for delimited files, the whitespace-split token otherwise. */
    String text(int j);

    /** True for the loader's missing values: an empty field, {@code ?} or {@code NA}. */
    boolean missing(int j);

    /** {@link RowChunks#parseNumber} of the field's text. */
    double number(int j);

    /** A record split into strings (FastCSV's, a regular-expression split, or a line with non-ASCII text). */
    final class Strings implements RecordFields {
        private final String[] f;

        Strings(String[] f) {
            this.f = f;
        }

        @Override
        public int size() {
            return f.length;
        }

        @Override
        public String text(int j) {
            return f[j];
        }

        @Override
        public boolean missing(int j) {
            return MISSING.contains(f[j]);
        }

        @Override
        public double number(int j) {
            return RowChunks.parseNumber(f[j]);
        }
    }

    /** A record of an ASCII line, its fields as ranges of the reader's byte buffer: no string per field. */
    final class Bytes implements RecordFields {
        byte[] buf;
        int[] from = new int[64];
        int[] to = new int[64];
        int n;

        @Override
        public int size() {
            return n;
        }

        @Override
        public String text(int j) {
            return new String(buf, from[j], to[j] - from[j], StandardCharsets.ISO_8859_1);
        }

        @Override
        public boolean missing(int j) {
            int a = from[j];
            int len = to[j] - a;
            return len == 0 || (len == 1 && buf[a] == '?') || (len == 2 && buf[a] == 'N' && buf[a + 1] == 'A');
        }

        @Override
        public double number(int j) {
            return DecimalParser.parse(buf, from[j], to[j]);
        }

        /** {@code String.trim} of every field (of ASCII text). */
        void trim() {
            byte[] b = buf;
            for (int j = 0; j < n; j++) {
                int s = from[j];
                int e = to[j];
                if (s < e && (b[s] <= ' ' || b[e - 1] <= ' ')) {
                    while (s < e && b[s] <= ' ') {
                        s++;
                    }
                    while (e > s && b[e - 1] <= ' ') {
                        e--;
                    }
                    from[j] = s;
                    to[j] = e;
                }
            }
        }

        void add(int a, int b) {
            if (n == from.length) {
                from = java.util.Arrays.copyOf(from, 2 * n);
                to = java.util.Arrays.copyOf(to, 2 * n);
            }
            from[n] = a;
            to[n] = b;
            n++;
        }
    }
}
