package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.data.ClassLabels;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.methods.coral.Coral;
import org.privadapt.methods.sa.SubspaceAlignment;
import org.privadapt.models.LogisticRegression;
import org.privadapt.models.LogisticRegressionTrainer;

/**
 * The non-private baselines' logistic regression on Spark (local[2]) against {@link LogisticRegressionTrainer} in
 * process on the same rows: the parameters to 1e-6 relative (L-BFGS on sums that differ by rounding stops within its
 * tolerance, not bit for bit) and the same predictions, on 1 and 3 partitions (the maps on 3); the rows as they are (source-only),
 * through CORAL's alignment map and through SA's source map; the target's evaluation on Spark counts what the
 * in-process predictions get right.
 */
class SparkLogisticRegressionTest {
    static final double REL = 1e-6;
    static SparkSession spark;
    static SparkTestSupport.Rows source;
    static SparkTestSupport.Rows target;

    @AfterAll
    static void report() {
        SparkTestSupport.reportWorst("logistic regression (Spark vs in-process)");
    }

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        source = SparkTestSupport.generate(240, 5, 21);
        target = SparkTestSupport.generate(200, 5, 22);
    }

    @Test
    void theModelAndItsEvaluationEqualTheInProcessOnes() {
        DenseMatrix xs = source.matrix();
        DenseMatrix xt = target.matrix();
        ClassLabels ys = new ClassLabels(source.codes(SparkTestSupport.CLASSES), SparkTestSupport.CLASSES);
        int[] yt = target.codes(SparkTestSupport.CLASSES);
        DenseMatrix coral = Coral.alignmentMap(LinAlg.covariance(xs), LinAlg.covariance(xt), 1.0);
        DenseMatrix ps = SubspaceAlignment.basisOfRows(xs, 3);
        DenseMatrix pt = SubspaceAlignment.basisOfRows(xt, 3);
        DenseMatrix saSource = SubspaceAlignment.sourceMap(ps, pt);
        DenseMatrix[][] maps = {{null, null}, {coral, null}, {saSource, pt}}; // {source map, target map}
        for (DenseMatrix[] m : maps) {
            DenseMatrix mapped = m[0] == null ? xs : LinAlg.multiply(xs, m[0]);
            LogisticRegression local = new LogisticRegressionTrainer(1e-3, 500).fit(mapped, ys);
            DenseMatrix evalRows = m[1] == null ? xt : LinAlg.multiply(xt, m[1]);
            int[] pred = local.predict(evalRows);
            long right = 0;
            for (int i = 0; i < pred.length; i++) {
                right += pred[i] == yt[i] ? 1 : 0;
            }
            for (int parts : m[0] == null ? new int[] {1, 3} : new int[] {3}) { // each objective is a Spark job: keep CI short
                String what = (m[0] == null ? "rows as they are" : m[1] == null ? "CORAL map" : "SA map") + ", " + parts + " partitions";
                LogisticRegression onSpark = SparkLogisticRegression.fit(source.table(spark, parts), m[0], SparkTestSupport.CLASSES,
                        1e-3, 500);
                assertRelativelyClose(onSpark.weights().data(), local.weights().data(), REL, what + ", weights");
                assertRelativelyClose(onSpark.bias(), local.bias(), REL, what + ", bias");
                assertThat(onSpark.predict(evalRows)).as(what).containsExactly(pred);
                assertThat(SparkEvaluation.correct(target.table(spark, parts), onSpark, m[1])).as(what)
                        .containsExactly(right, pred.length);
            }
        }
    }

    @Test
    void labelsOutsideTheClassesAndWrongMapsAreRefused() {
        SparkTable t = source.table(spark, 2);
        assertThatThrownBy(() -> SparkLogisticRegression.fit(t, null, List.of("a", "b"), 1e-3, 50))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside the classes");
        assertThatThrownBy(() -> SparkLogisticRegression.fit(t, new DenseMatrix(4, 2, new double[8]), SparkTestSupport.CLASSES, 1e-3, 50))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("map");
    }
}
