package org.privadapt.data.text;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import org.privadapt.data.Dataset;
import org.privadapt.data.Labels;
import org.privadapt.data.Provenance;
import org.privadapt.math.CsrMatrix;

/**
 * Bag of words by feature hashing: a text featuriser whose layout is public by construction. Each document is cut
 * into the tokens of {@link BagOfWords#tokens} (lower-cased ASCII letter runs of at least two letters, the
 * placeholder {@code xxxx} removed); each token, and optionally each pair of adjacent tokens (key {@code "w1 w2"}),
 * goes to one of {@code D} buckets by a fixed hash. Per row and bucket the value is {@code log(1 + tf)} where tf is
 * the number of keys falling in the bucket (with signed hashing: the sum of the keys' signs s, giving
 * {@code sign(s) log(1 + |s|)}); then every non-zero row is scaled to L2 norm 1.
 *
 * <p>Nothing is fitted: no vocabulary, no document frequencies, no IDF. The dimension D and the hash are fixed in
 * advance, and each row's features depend on that row's text only, so the featuriser reads nothing private beyond
 * the row it encodes (the dataset's schema is not marked as read from the rows).
 *
 * <p>Hash ({@link #hash64}): 64-bit FNV-1a over the key's UTF-8 bytes (offset basis 0xcbf29ce484222325, prime
 * 0x100000001b3), followed by the 64-bit finaliser of MurmurHash3 (fmix64) to spread FNV's weakly mixed low bits.
 * Bucket = (h with its top bit cleared) mod D; sign (if signed) = + when the top bit is 0, - when it is 1. Both
 * steps are fully specified arithmetic on bytes, so the features are the same on every JVM, platform and version.
 * {@code String.hashCode} was not used: although its formula is specified, it is only 32 bits, works on UTF-16
 * units rather than bytes, and its base-31 polynomial mixes short keys poorly (e.g. "Aa" and "BB" collide).
 */
public final class HashedBagOfWords {
    /** The default number of buckets, 2^12. */
    public static final int DEFAULT_BUCKETS = 1 << 12;

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final int buckets;
    private final boolean bigrams;
    private final boolean signed;

    /**
     * @param buckets the dimension D (at least 1)
     * @param bigrams also hash pairs of adjacent tokens
     * @param signed  signed hashing (collisions of keys with opposite signs partly cancel instead of adding up)
     */
    public HashedBagOfWords(int buckets, boolean bigrams, boolean signed) {
        if (buckets < 1) {
            throw new IllegalArgumentException("need at least one bucket, got " + buckets);
        }
        this.buckets = buckets;
        this.bigrams = bigrams;
        this.signed = signed;
    }

    /** Unigrams only, unsigned, {@link #DEFAULT_BUCKETS} buckets. */
    public static HashedBagOfWords standard() {
        return new HashedBagOfWords(DEFAULT_BUCKETS, false, false);
    }

    public int buckets() {
        return buckets;
    }

    public boolean bigrams() {
        return bigrams;
    }

    public boolean signed() {
        return signed;
    }

    /** One line for provenance and listings. */
    public String describe() {
        return String.format(Locale.ROOT, "hashed bag of words: %d buckets, %s, %s hashing (FNV-1a-64 + fmix64 of UTF-8), "
                + "log(1 + tf), rows L2-normalised; nothing fitted", buckets, bigrams ? "unigrams + bigrams" : "unigrams",
                signed ? "signed" : "unsigned");
    }

    /** The 64-bit hash of a key: FNV-1a over its UTF-8 bytes, then MurmurHash3's fmix64 finaliser. */
    public static long hash64(String key) {
        long h = FNV_OFFSET;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= FNV_PRIME;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** The bucket of a key, in [0, D). */
    public int bucket(String key) {
        return (int) ((hash64(key) & Long.MAX_VALUE) % buckets);
    }

    /** The sign of a key: +1 unless hashing is signed and the hash's top bit is set. */
    public int sign(String key) {
        return signed && hash64(key) < 0 ? -1 : 1;
    }

    /** The feature row of one document as a map bucket -> value (non-zero values only, L2 norm 1 unless empty). */
    TreeMap<Integer, Double> row(String document) {
        List<String> tokens = BagOfWords.tokens(document);
        TreeMap<Integer, Integer> counts = new TreeMap<>();
        for (int t = 0; t < tokens.size(); t++) {
            add(counts, tokens.get(t));
            if (bigrams && t + 1 < tokens.size()) {
                add(counts, tokens.get(t) + " " + tokens.get(t + 1));
            }
        }
        TreeMap<Integer, Double> out = new TreeMap<>();
        double norm2 = 0;
        for (var e : counts.entrySet()) {
            int s = e.getValue();
            if (s != 0) {
                double v = Math.signum(s) * Math.log1p(Math.abs(s));
                out.put(e.getKey(), v);
                norm2 += v * v;
            }
        }
        if (norm2 > 0) {
            double f = 1 / Math.sqrt(norm2);
            out.replaceAll((k, v) -> v * f);
        }
        return out;
    }

    private void add(TreeMap<Integer, Integer> counts, String key) {
        long h = hash64(key);
        int b = (int) ((h & Long.MAX_VALUE) % buckets);
        counts.merge(b, signed && h < 0 ? -1 : 1, Integer::sum);
    }

    /** The features of the documents, one sparse row each (n x D). */
    public CsrMatrix features(List<String> documents) {
        int n = documents.size();
        int[] start = new int[n + 1];
        List<TreeMap<Integer, Double>> rows = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            TreeMap<Integer, Double> r = row(documents.get(i));
            rows.add(r);
            start[i + 1] = start[i] + r.size();
        }
        int[] cols = new int[start[n]];
        double[] vals = new double[start[n]];
        for (int i = 0; i < n; i++) {
            int k = start[i];
            for (var e : rows.get(i).entrySet()) {
                cols[k] = e.getKey();
                vals[k++] = e.getValue();
            }
        }
        return new CsrMatrix(n, buckets, start, cols, vals);
    }

    /**
     * A dataset of the documents' features. Its layout is public by construction, so it is not marked as read from
     * the rows (unlike {@link BagOfWords#transform}).
     */
    public Dataset transform(List<String> documents, String domain, Labels labels, Path file, String sha256, String columns) {
        Provenance prov = Provenance.of(new Provenance.SourceFile(file.toString(), sha256, "CSV text",
                columns + "; " + describe()));
        return new Dataset(domain, features(documents), labels, null, prov);
    }
}
