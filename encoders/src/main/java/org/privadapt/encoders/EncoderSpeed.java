package org.privadapt.encoders;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.privadapt.data.io.TextTable;

/**
 * Measures {@code encoder=minilm}'s speed on a text column, without the cache:
 * {@code java -cp encoders/target/privadapt-encoders.jar org.privadapt.encoders.EncoderSpeed FILE.csv COLUMN [N]}
 * prints the model's load time and the reports per second over the column's first N non-blank texts (default all).
 */
public final class EncoderSpeed {
    private EncoderSpeed() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: EncoderSpeed FILE.csv COLUMN [N]");
            System.exit(2);
        }
        TextTable t = TextTable.read(Path.of(args[0]), TextTable.Format.csv());
        int c = t.columnIndex(args[1]);
        int max = args.length > 2 ? Integer.parseInt(args[2]) : Integer.MAX_VALUE;
        List<String> texts = new ArrayList<>();
        for (int r = 0; r < t.size() && texts.size() < max; r++) {
            String s = t.row(r)[c];
            if (!s.isBlank()) {
                texts.add(s);
            }
        }
        MiniLm m = new MiniLm();
        long t0 = System.nanoTime();
        m.encode(List.of("warm-up"), k -> { });
        long t1 = System.nanoTime();
        m.encode(texts, k -> { });
        long t2 = System.nanoTime();
        double chars = texts.stream().mapToInt(String::length).average().orElse(0);
        System.out.printf(Locale.ROOT, "load + first text %.2f s; %d texts (%.0f characters on average) in %.2f s: %.1f reports/s "
                + "(%d workers)%n", (t1 - t0) / 1e9, texts.size(), chars, (t2 - t1) / 1e9, texts.size() / ((t2 - t1) / 1e9),
                MiniLm.threads());
    }
}
