package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.methods.coral.Coral;
import org.privadapt.methods.sa.SubspaceAlignment;

/**
 * The non-private baselines' moments on Spark (local[2]) against the in-process ones (no noise: equality is the
 * test): each domain's mean and covariance to 1e-9 relative on 1, 3 and 7 partitions, also for a target whose mean
 * (50) is far larger than its spread; CORAL's map and aligned source rows, SA's bases and mapped rows as the
 * in-process methods compute them ({@code Coral.alignSource}, {@code SubspaceAlignment.basisOfRows}).
 */
class SparkBaselinesTest {
    static final double REL = 1e-9;
    static SparkSession spark;
    static SparkTestSupport.Rows source;
    static SparkTestSupport.Rows target;

    @AfterAll
    static void report() {
        SparkTestSupport.reportWorst("CORAL/SA moments (Spark vs in-process, and across partitionings)");
    }

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        source = SparkTestSupport.generate(300, 6, 5);
        SparkTestSupport.Rows t = SparkTestSupport.generate(250, 6, 6);
        double[][] shifted = new double[t.rows().length][];
        for (int i = 0; i < shifted.length; i++) {
            shifted[i] = t.rows()[i].clone();
            for (int j = 0; j < shifted[i].length; j++) {
                shifted[i][j] = 0.5 * shifted[i][j] + 50 + j;
            }
        }
        target = new SparkTestSupport.Rows(shifted, t.labels());
    }

    @Test
    void theMomentsEqualTheInProcessOnesOnEveryPartitioning() {
        for (SparkTestSupport.Rows rows : new SparkTestSupport.Rows[] {source, target}) {
            DenseMatrix x = rows.matrix();
            for (int parts : new int[] {1, 3, 7}) {
                SparkBaselines.Moments m = SparkBaselines.moments(rows.table(spark, parts));
                assertThat(m.count()).isEqualTo(x.rows());
                assertRelativelyClose(m.mean(), x.columnMeans(), REL, parts + " partitions, mean");
                assertRelativelyClose(m.covariance().data(), LinAlg.covariance(x).data(), REL, parts + " partitions, covariance");
                assertThat(m.covariance().asymmetry()).isZero();
            }
        }
        // one row: a zero covariance, as in process
        SparkTestSupport.Rows one = new SparkTestSupport.Rows(new double[][] {source.rows()[0]}, new String[] {"a"});
        assertThat(SparkBaselines.moments(one.table(spark, 1)).covariance().maxAbs()).isZero();
    }

    @Test
    void coralsMapAndAlignedRowsAreTheInProcessOnes() {
        DenseMatrix xs = source.matrix();
        DenseMatrix xt = target.matrix();
        for (double lambda : new double[] {1.0, 0.1}) {
            DenseMatrix map = SparkBaselines.coralMap(source.table(spark, 3), target.table(spark, 7), lambda);
            assertRelativelyClose(map.data(), Coral.alignmentMap(LinAlg.covariance(xs), LinAlg.covariance(xt), lambda).data(), REL,
                    "CORAL map, lambda " + lambda);
            assertRelativelyClose(Coral.apply(xs, map).data(), Coral.alignSource(xs, xt, lambda).data(), REL,
                    "CORAL aligned source, lambda " + lambda);
        }
    }

    @Test
    void subspaceAlignmentsBasesAndMappedRowsAreTheInProcessOnes() {
        DenseMatrix xs = source.matrix();
        DenseMatrix xt = target.matrix();
        for (int k : new int[] {2, 3}) {
            DenseMatrix ps = SparkBaselines.subspaceBasis(source.table(spark, 3), k);
            DenseMatrix pt = SparkBaselines.subspaceBasis(target.table(spark, 7), k);
            DenseMatrix psLocal = SubspaceAlignment.basisOfRows(xs, k);
            DenseMatrix ptLocal = SubspaceAlignment.basisOfRows(xt, k);
            assertRelativelyClose(ps.data(), psLocal.data(), REL, "SA source basis, k " + k);
            assertRelativelyClose(pt.data(), ptLocal.data(), REL, "SA target basis, k " + k);
            DenseMatrix map = SparkBaselines.subspaceSourceMap(source.table(spark, 2), target.table(spark, 2), k);
            assertRelativelyClose(map.data(), SubspaceAlignment.sourceMap(psLocal, ptLocal).data(), REL, "SA source map, k " + k);
            assertRelativelyClose(xs.multiply(map).data(), SubspaceAlignment.transformSource(xs, psLocal, ptLocal).data(), REL,
                    "SA mapped source, k " + k);
        }
    }

    @Test
    void anEmptyTableOrANonFiniteValueIsRefused() {
        double[] bad = source.rows()[0].clone();
        bad[2] = Double.POSITIVE_INFINITY;
        assertThatThrownBy(() -> SparkBaselines.moments(source.plus(bad, "a").table(spark, 2)))
                .hasMessageContaining("1 row(s) have a missing or non-finite");
        SparkTable empty = new SparkTable(source.table(spark, 1).rows().limit(0), source.featureNames(), "y");
        assertThatThrownBy(() -> SparkBaselines.moments(empty)).hasMessageContaining("no rows");
        assertThatThrownBy(() -> SparkBaselines.coralMap(source.table(spark, 1),
                new SparkTable(source.table(spark, 1).rows(), source.featureNames().subList(0, 5), "y"), 1.0))
                .hasMessageContaining("different dimension");
    }
}
