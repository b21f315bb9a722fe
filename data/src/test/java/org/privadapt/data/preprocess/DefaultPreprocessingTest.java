package org.privadapt.data.preprocess;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.privadapt.data.Dataset;
import org.privadapt.data.Provenance;
import org.privadapt.data.preprocess.DefaultPreprocessing.Kind;
import org.privadapt.math.DenseMatrix;

class DefaultPreprocessingTest {
    static Dataset ds(String format, double[][] rows) {
        return new Dataset("d", DenseMatrix.fromRows(rows), null, null,
                Provenance.of(new Provenance.SourceFile("/x", "00", format, "")));
    }

    @Test
    void kindsFollowFormatAndValues() {
        assertThat(Kind.detect(ds("MAT v5", new double[][] {{0, 3, 1}, {2, 0, 0}}))).isEqualTo(Kind.COUNT_HISTOGRAMS);
        assertThat(Kind.detect(ds("MAT v5", new double[][] {{0, 0.5, 1}, {2, 0, 0}}))).isEqualTo(Kind.DENSE_FEATURES);
        assertThat(Kind.detect(ds("MAT v5", new double[][] {{0, -1, 1}, {2, 0, 0}}))).isEqualTo(Kind.TABULAR);
        // a table of non-negative integers (one-hot, ages) is still a table
        assertThat(Kind.detect(ds("comma text", new double[][] {{0, 3, 1}, {2, 0, 0}}))).isEqualTo(Kind.TABULAR);
        assertThat(Kind.detect(ds("fixed-width text", new double[][] {{0, 3, 1}}))).isEqualTo(Kind.TABULAR);
        assertThat(Kind.detect(ds("SVMlight", new double[][] {{0, 3, 1}}))).isEqualTo(Kind.SPARSE_COUNTS);
        Dataset sparse = ds("MAT v5", new double[][] {{0, 3, 1}, {2, 0, 0}});
        sparse = sparse.withFeatures(org.privadapt.math.CsrMatrix.fromDense(sparse.denseFeatures()), "sparse");
        assertThat(Kind.detect(sparse)).isEqualTo(Kind.SPARSE_COUNTS);
    }

    @Test
    void nonPrivateDefaultsByKind() {
        assertThat(DefaultPreprocessing.choose(ds("MAT v5", new double[][] {{0, 3}, {2, 0}}), false).spec()).isEqualTo("l1,zscore");
        assertThat(DefaultPreprocessing.choose(ds("comma text", new double[][] {{-1, 3}, {2, 0}}), false).spec()).isEqualTo("zscore");
        assertThat(DefaultPreprocessing.choose(ds("SVMlight", new double[][] {{1, 3}}), false).spec()).isEqualTo("none");
        assertThat(DefaultPreprocessing.choose(ds("MAT v5", new double[][] {{0.1, 3}}), false).spec()).isEqualTo("l2");
    }

    @Test
    void privateDefaultIsRowLocalAndDependsOnlyOnTheDimension() {
        DefaultPreprocessing.Choice c = DefaultPreprocessing.forPrivate(800);
        assertThat(c.spec()).isEqualTo("l2,scale=28");
        assertThat(DefaultPreprocessing.forPrivate(5000).spec()).isEqualTo("l2,scale=70");
        assertThat(DefaultPreprocessing.forPrivate(1).spec()).isEqualTo("l2,scale=1");
        Preprocessing p = c.preprocessing();
        assertThat(p.dataDependentSteps()).isEmpty();
        assertThat(p.rowNormBound()).isEqualTo(28.0);
        // values play no part: a table and a histogram of the same width get the same private default
        assertThat(DefaultPreprocessing.choose(ds("comma text", new double[][] {{-5, 3, 1}}), true))
                .isEqualTo(DefaultPreprocessing.choose(ds("MAT v5", new double[][] {{0, 3, 1}}), true));
        assertThat(Preprocessing.parse("l2,scale=28").spec()).isEqualTo("l2,scale=28");
    }

    @Test
    void paper003sSupervisedProtocolScalesItselfSoTheDefaultIsNone() {
        Dataset table = ds("comma text", new double[][] {{-1, 3}, {2, 0}});
        assertThat(DefaultPreprocessing.choose(table, true, true).spec()).isEqualTo("none");
        assertThat(DefaultPreprocessing.choose(table, false, true).spec()).isEqualTo("none");
        assertThat(DefaultPreprocessing.choose(table, true, false).spec()).isEqualTo("l2,scale=1");
    }
}
