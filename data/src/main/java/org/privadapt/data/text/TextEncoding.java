package org.privadapt.data.text;

import java.nio.file.Path;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.privadapt.data.Dataset;
import org.privadapt.data.Labels;
import org.privadapt.data.Provenance;
import org.privadapt.math.DenseMatrix;

/**
 * How a text suite turns its texts into features: the built-in hashed bag of words ({@link #BOW}) or a frozen
 * pretrained {@link TextEncoder} with its on-disk cache and a progress display. Either way a row-local public map:
 * nothing is fitted on the rows. The dataset's provenance names the encoder and its hash
 * ({@code text encoder NAME sha256:HASH}), which {@link #identity(Dataset)} reads back, so that a release can record
 * which encoder it was trained on.
 *
 * @param encoder  null for the hashed bag of words
 * @param cache    where encoded texts are kept (null: none)
 * @param progress the progress display of long encodings
 */
public record TextEncoding(TextEncoder encoder, EncodedTextCache cache, EncodingProgress progress) {
    /** The hashed bag of words ({@link HashedBagOfWords#standard()}). */
    public static final TextEncoding BOW = new TextEncoding(null, null, EncodingProgress.NONE);

    private static final Pattern MARK = Pattern.compile("text encoder ([a-z0-9._-]+) sha256:([0-9a-f]{64})");

    public TextEncoding {
        progress = progress == null ? EncodingProgress.NONE : progress;
    }

    /** The encoding named by {@code --param encoder=NAME} (null or blank: bow), cached in the standard cache. */
    public static TextEncoding named(String name, EncodingProgress progress) {
        TextEncoder e = TextEncoders.find(name);
        return e == null ? BOW : new TextEncoding(e, EncodedTextCache.standard(), progress);
    }

    /** {@value TextEncoders#BOW} or the encoder's name. */
    public String name() {
        return encoder == null ? TextEncoders.BOW : encoder.name();
    }

    /** The features' dimension. */
    public int dimension() {
        return encoder == null ? HashedBagOfWords.DEFAULT_BUCKETS : encoder.dimension();
    }

    /** One line for provenance and listings. */
    public String describe() {
        return encoder == null ? HashedBagOfWords.standard().describe()
                : "frozen pretrained text encoder " + encoder.name() + " (" + encoder.model() + "), " + encoder.dimension()
                + " features; public weights and tokenizer, text encoder " + encoder.name() + " sha256:" + encoder.hash()
                + "; nothing fitted";
    }

    /** Which encoder made a dataset's features (from its provenance); {@link Identity#BOW} when none is named. */
    public static Identity identity(Dataset d) {
        for (Provenance.SourceFile f : d.provenance().files()) {
            Matcher m = MARK.matcher(f.detail() == null ? "" : f.detail());
            if (m.find()) {
                return new Identity(m.group(1), m.group(2));
            }
        }
        return Identity.BOW;
    }

    /** This encoding's identity. */
    public Identity identity() {
        return encoder == null ? Identity.BOW : new Identity(encoder.name(), encoder.hash());
    }

    /**
     * An encoder's name and the SHA-256 of its weights and tokenizer (empty for the bag of words, which has none).
     */
    public record Identity(String name, String hash) {
        public static final Identity BOW = new Identity(TextEncoders.BOW, "");

        /** "minilm (sha256 1a2b...)" or "bow". */
        public String describe() {
            return hash.isEmpty() ? name : name + " (sha256 " + hash + ")";
        }
    }

    /**
     * A dataset of the documents' features, as {@link HashedBagOfWords#transform} does for the bag of words.
     *
     * @param task what is encoded, for the progress display (e.g. "findings")
     */
    public Dataset transform(List<String> documents, String domain, Labels labels, Path file, String sha256, String columns,
                             String task) {
        if (encoder == null) {
            return HashedBagOfWords.standard().transform(documents, domain, labels, file, sha256, columns);
        }
        double[][] x;
        try (EncodingProgress.Display p = progress.start("encoding " + task + " (" + encoder.name() + ")", documents.size())) {
            IntConsumer done = p::done;
            x = cache == null ? encoder.encode(documents, done) : cache.encode(encoder, documents, done);
        }
        Provenance prov = Provenance.of(new Provenance.SourceFile(file.toString(), sha256, "CSV text", columns + "; " + describe()));
        return new Dataset(domain, DenseMatrix.fromRows(x), labels, null, prov);
    }
}
