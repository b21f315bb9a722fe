package org.privadapt.data.text;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.privadapt.data.Dataset;
import org.privadapt.data.Labels;
import org.privadapt.data.Provenance;
import org.privadapt.math.CsrMatrix;

/**
 * Word counts over a fixed vocabulary. Tokens are maximal runs of ASCII letters, lower-cased, at least two
 * letters long, with the de-identification placeholder {@code xxxx} removed. The vocabulary is the
 * {@code size} words with the highest document frequency (ties alphabetical), fitted on the documents given to
 * {@link #fit}: in a private setting that fit reads the documents and is not free.
 */
public final class BagOfWords {
    public static final int DEFAULT_VOCABULARY = 2000;
    private final List<String> vocabulary;
    private final Map<String, Integer> index;

    private BagOfWords(List<String> vocabulary) {
        this.vocabulary = List.copyOf(vocabulary);
        this.index = new HashMap<>();
        for (int i = 0; i < vocabulary.size(); i++) {
            index.put(vocabulary.get(i), i);
        }
    }

    public static BagOfWords of(List<String> vocabulary) {
        return new BagOfWords(vocabulary);
    }

    public static BagOfWords fit(List<String> documents, int size) {
        Map<String, Integer> df = new HashMap<>();
        for (String d : documents) {
            Set<String> seen = new HashSet<>(tokens(d));
            for (String w : seen) {
                df.merge(w, 1, Integer::sum);
            }
        }
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(df.entrySet());
        entries.sort((a, b) -> a.getValue().equals(b.getValue()) ? a.getKey().compareTo(b.getKey()) : b.getValue() - a.getValue());
        List<String> vocab = new ArrayList<>();
        for (int i = 0; i < Math.min(size, entries.size()); i++) {
            vocab.add(entries.get(i).getKey());
        }
        Collections.sort(vocab);
        return new BagOfWords(vocab);
    }

    public static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        String t = text.toLowerCase(Locale.ROOT);
        int start = -1;
        for (int i = 0; i <= t.length(); i++) {
            boolean letter = i < t.length() && t.charAt(i) >= 'a' && t.charAt(i) <= 'z';
            if (letter && start < 0) {
                start = i;
            } else if (!letter && start >= 0) {
                String w = t.substring(start, i);
                if (w.length() >= 2 && !w.equals("xxxx")) {
                    out.add(w);
                }
                start = -1;
            }
        }
        return out;
    }

    public List<String> vocabulary() {
        return vocabulary;
    }

    public Dataset transform(List<String> documents, String domain, Labels labels, Path file, String sha256) {
        int n = documents.size();
        int[] start = new int[n + 1];
        List<int[]> colsPerRow = new ArrayList<>();
        List<double[]> valsPerRow = new ArrayList<>();
        int nnz = 0;
        for (int i = 0; i < n; i++) {
            TreeMap<Integer, Integer> counts = new TreeMap<>();
            for (String w : tokens(documents.get(i))) {
                Integer j = index.get(w);
                if (j != null) {
                    counts.merge(j, 1, Integer::sum);
                }
            }
            int[] c = new int[counts.size()];
            double[] v = new double[counts.size()];
            int k = 0;
            for (Map.Entry<Integer, Integer> e : counts.entrySet()) {
                c[k] = e.getKey();
                v[k++] = e.getValue();
            }
            colsPerRow.add(c);
            valsPerRow.add(v);
            nnz += c.length;
            start[i + 1] = nnz;
        }
        int[] ci = new int[nnz];
        double[] vals = new double[nnz];
        for (int i = 0; i < n; i++) {
            System.arraycopy(colsPerRow.get(i), 0, ci, start[i], colsPerRow.get(i).length);
            System.arraycopy(valsPerRow.get(i), 0, vals, start[i], valsPerRow.get(i).length);
        }
        CsrMatrix x = new CsrMatrix(n, vocabulary.size(), start, ci, vals);
        Provenance prov = Provenance.of(new Provenance.SourceFile(file.toString(), sha256, "CSV text",
                "bag of words over " + vocabulary.size() + " words"));
        // the vocabulary is read from the documents (PublicFacts): d and the feature names depend on them
        return new Dataset(domain, x, labels, vocabulary, prov).withSchemaFromRows();
    }
}
