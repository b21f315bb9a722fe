package org.privadapt.data;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

/**
 * One domain's examples: a feature matrix (dense or sparse, one example per row), optional labels (class labels
 * with names, real targets, or multi-label binary targets), optional feature names, the domain's name and the
 * data's provenance.
 * Immutable: every operation returns a new dataset whose provenance records what was done.
 */
public final class Dataset {
    private final String domain;
    private final FeatureMatrix features;
    private final Labels labels;
    private final List<String> featureNames;
    private final Provenance provenance;
    private final PublicFacts publicFacts;

    public Dataset(String domain, FeatureMatrix features, Labels labels, List<String> featureNames, Provenance provenance) {
        this(domain, features, labels, featureNames, provenance, PublicFacts.NONE);
    }

    /** As above, with what its holder declares public about it ({@link PublicFacts}). */
    public Dataset(String domain, FeatureMatrix features, Labels labels, List<String> featureNames, Provenance provenance,
                   PublicFacts publicFacts) {
        this.publicFacts = publicFacts == null ? PublicFacts.NONE : publicFacts;
        this.domain = Objects.requireNonNull(domain, "domain");
        this.features = Objects.requireNonNull(features, "features");
        this.labels = labels;
        this.featureNames = featureNames == null ? List.of() : List.copyOf(featureNames);
        this.provenance = provenance == null ? new Provenance(List.of(), List.of()) : provenance;
        if (labels != null && labels.size() != features.rows()) {
            throw new IllegalArgumentException(labels.size() + " labels for " + features.rows() + " rows");
        }
        if (!this.featureNames.isEmpty() && this.featureNames.size() != features.cols()) {
            throw new IllegalArgumentException(this.featureNames.size() + " feature names for " + features.cols() + " columns");
        }
    }

    public String domain() {
        return domain;
    }

    public FeatureMatrix features() {
        return features;
    }

    /** Number of examples. */
    public int size() {
        return features.rows();
    }

    /** Number of features. */
    public int dimension() {
        return features.cols();
    }

    public boolean hasLabels() {
        return labels != null;
    }

    public Optional<Labels> labels() {
        return Optional.ofNullable(labels);
    }

    /** True when labels are (single-label) class labels; false for multi-label targets. */
    public boolean isClassification() {
        return labels instanceof ClassLabels;
    }

    /**
     * The class labels.
     *
     * @throws DataException if the dataset has none (named after its first source file)
     */
    public ClassLabels classLabels() throws DataException {
        if (labels instanceof ClassLabels c) {
            return c;
        }
        if (labels instanceof MultiLabels m) {
            throw new DataException(firstFile(), null, "domain '" + domain + "' has multi-label targets (" + m.numLabels()
                    + " labels), but single-label class labels are required here: this does not support multi-label targets");
        }
        throw new DataException(firstFile(), null, labels == null
                ? "domain '" + domain + "' has no labels, but labels are required here"
                : "domain '" + domain + "' has real-valued targets, but class labels are required here");
    }

    public List<String> featureNames() {
        return featureNames;
    }

    public Provenance provenance() {
        return provenance;
    }

    /** What its holder declares public about this dataset (size, class set, schema); none by default. */
    public PublicFacts publicFacts() {
        return publicFacts;
    }

    /** The same data with these facts declared public (adding to those already declared). */
    public Dataset withPublicFacts(PublicFacts declared) {
        return new Dataset(domain, features, labels, featureNames, provenance, publicFacts.declaring(declared));
    }

    /** The same data, its layout marked as read from its rows (one-hot levels, vocabulary, SVMlight dimension). */
    public Dataset withSchemaFromRows() {
        return new Dataset(domain, features, labels, featureNames, provenance, publicFacts.withSchemaFromRows());
    }

    /** The first file this dataset was read from, or its domain name for generated data. */
    public String firstFile() {
        return provenance.files().isEmpty() ? "<" + domain + ">" : provenance.files().get(0).path();
    }

    public Dataset withFeatures(FeatureMatrix newFeatures, String step) {
        List<String> names = newFeatures.cols() == features.cols() ? featureNames : List.of();
        return new Dataset(domain, newFeatures, labels, names, provenance.withStep(step), publicFacts);
    }

    public Dataset withLabels(Labels newLabels, String step) {
        return new Dataset(domain, features, newLabels, featureNames, provenance.withStep(step), publicFacts);
    }

    /** The same data without labels (what an unlabelled party holds). */
    public Dataset withoutLabels() {
        return new Dataset(domain, features, null, featureNames, provenance.withStep("labels dropped"), publicFacts);
    }

    public Dataset withDomain(String newDomain) {
        return new Dataset(newDomain, features, labels, featureNames, provenance, publicFacts);
    }

    public Dataset selectRows(int[] idx, String why) {
        return new Dataset(domain, features.selectRows(idx), labels == null ? null : labels.selectRows(idx),
                featureNames, provenance.withStep("rows selected: " + why + " (" + idx.length + " of " + size() + ")"),
                publicFacts.withoutSize());
    }

    public Dataset selectColumns(int[] idx, String why) {
        List<String> names = new ArrayList<>();
        if (!featureNames.isEmpty()) {
            for (int j : idx) {
                names.add(featureNames.get(j));
            }
        }
        return new Dataset(domain, features.selectColumns(idx), labels, names,
                provenance.withStep("columns selected: " + why + " (" + idx.length + " of " + dimension() + ")"), publicFacts);
    }

    /** The features as {@code double[n][d]} (a copy), for code that works on arrays (scikit-learn's X). */
    public double[][] featureRows() {
        DenseMatrix x = features.toDense();
        double[][] out = new double[x.rows()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = x.row(i);
        }
        return out;
    }

    /**
     * The class labels as codes 0..K-1 in the order of {@link ClassLabels#names()} (scikit-learn's y).
     *
     * @throws DataException if the rows carry no class labels (none, real targets or multi-label)
     */
    public int[] classCodes() throws DataException {
        return classLabels().codes().clone();
    }

    /** Dense features (a copy only if they were sparse). */
    public DenseMatrix denseFeatures() {
        return features.toDense();
    }

    /**
     * Checks every feature value (and real target) is finite.
     *
     * @throws DataException naming the first file and the first offending row and column (1-based)
     */
    public Dataset requireFinite() throws DataException {
        if (features instanceof DenseMatrix d) {
            int[] bad = d.firstNonFinite();
            if (bad != null) {
                throw new DataException(firstFile(), "row " + PrivateText.row(bad[0] + 1) + ", column " + (bad[1] + 1),
                        "value " + PrivateText.value(d.get(bad[0], bad[1])) + " is not a finite number");
            }
        } else if (features instanceof CsrMatrix s) {
            for (int i = 0; i < s.rows(); i++) {
                for (int k = s.rowStart(i); k < s.rowEnd(i); k++) {
                    if (!Double.isFinite(s.valueAt(k))) {
                        throw new DataException(firstFile(), "row " + PrivateText.row(i + 1) + ", column " + (s.colIndexAt(k) + 1),
                                "value " + PrivateText.value(s.valueAt(k)) + " is not a finite number");
                    }
                }
            }
        }
        if (labels instanceof RealTargets r) {
            for (int i = 0; i < r.size(); i++) {
                if (!Double.isFinite(r.value(i))) {
                    throw new DataException(firstFile(), "row " + PrivateText.row(i + 1), "target " + PrivateText.value(r.value(i))
                            + " is not a finite number");
                }
            }
        }
        return this;
    }

    /**
     * Checks the dataset is not empty.
     *
     * @throws DataException naming the first file
     */
    public Dataset requireNonEmpty() throws DataException {
        if (size() == 0) {
            throw new DataException(firstFile(), null, "domain '" + domain + "' has no examples");
        }
        if (dimension() == 0) {
            throw new DataException(firstFile(), null, "domain '" + domain + "' has no features");
        }
        return this;
    }

    /**
     * Checks {@code other} has the same number of features.
     *
     * @throws DataException naming the other dataset's file
     */
    public void requireSameDimension(Dataset other) throws DataException {
        if (other.dimension() != dimension()) {
            throw new DataException(other.firstFile(), null, "domain '" + other.domain + "' has "
                    + PrivateText.dimension(other.dimension(), other.publicFacts.schemaPublic()) + " features but domain '" + domain
                    + "' (" + firstFile() + ") has " + PrivateText.dimension(dimension(), publicFacts.schemaPublic()));
        }
    }

    @Override
    public String toString() {
        return "Dataset(" + domain + ", " + size() + "x" + dimension() + (features.isSparse() ? " sparse" : "")
                + (labels == null ? ", unlabelled" : ", " + labels) + ")";
    }
}
