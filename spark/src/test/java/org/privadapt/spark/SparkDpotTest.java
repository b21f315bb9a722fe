package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.spark.SparkTestSupport.CLASSES;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.dpot.Dpot;
import org.privadapt.methods.dpot.DpotConfig;
import org.privadapt.methods.dpot.DpotRelease;
import org.privadapt.methods.dpot.JlProjection;
import org.privadapt.methods.neighbours.Neighbours;
import org.privadapt.methods.neighbours.ReleaseComparison;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * DPOT's source release on Spark (local[2]) against the in-process one: with the same seeded noise and the rows in the
 * same order the release is equal (the JL matrix exactly, every released row and count to 1e-9 relative, the privacy
 * statement and the charge equal), for the whole-batch release at the record and attribute levels and the minibatch
 * release; the per-row projection does not depend on the partitioning; on the methods module's replace-one neighbours
 * ({@link Neighbours#replaceOne}) the Spark projection changes one row only, by at most the per-row bound that
 * {@link Dpot#rowSensitivity} is built from (the order's part of the sensitivity is {@code DpotNeighboursTest}'s, on
 * the in-process order the Spark path shares); a label outside the classes, an add/remove session and an unlabelled
 * table are refused before anything is charged.
 */
class SparkDpotTest {
    static final double REL = 1e-9;
    static SparkSession spark;
    static SparkTestSupport.Rows data;

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        data = SparkTestSupport.generate(300, 8, 5);
    }

    @AfterAll
    static void report() {
        SparkTestSupport.reportWorst("DPOT (Spark vs in-process, across partitionings)");
    }

    /** The rows as a table of {@code partitions} partitions in their original order (no shuffle). */
    static SparkTable ordered(SparkTestSupport.Rows rows, int partitions) {
        Dataset<Row> frame = rows.frame(spark);
        Dataset<Row> sliced = spark.createDataFrame(new JavaSparkContext(spark.sparkContext())
                .parallelize(frame.collectAsList(), partitions), frame.schema());
        return SparkData.of(sliced, rows.featureNames(), "y");
    }

    static PrivacySession session(long seed, NeighbouringRelation rel) {
        return new PrivacySession("source", new PrivacyBudget(4.0, 1e-4), rel, NoiseSource.seeded(seed), null);
    }

    static DpotConfig config(Map<String, String> params) {
        return DpotConfig.from(new MethodConfig("lr", 1e-3, 1L, params));
    }

    @Test
    void theReleaseEqualsTheInProcessOneOnTheSameSeededNoise() throws Exception {
        List<Map<String, String>> configs = List.of(
                Map.of(), // record level, whole batch
                Map.of("level", "attribute", "dim", "5"),
                Map.of("mode", "minibatch", "batch", "64", "batches", "3", "clip", "2.0"));
        DenseMatrix x = data.matrix();
        int[] y = data.codes(CLASSES);
        for (Map<String, String> params : configs) {
            for (int partitions : new int[] {1, 3}) {
                DpotConfig cfg = config(params);
                PrivacySession local = session(21, NeighbouringRelation.REPLACE_ONE);
                DpotRelease in = Dpot.release(x, y, CLASSES, cfg, local, "run-1", "l2");
                PrivacySession onSpark = session(21, NeighbouringRelation.REPLACE_ONE);
                DpotRelease sp = SparkDpot.release(ordered(data, partitions), CLASSES, cfg, onSpark, "run-1", "l2");
                String what = params + " on " + partitions + " partition(s)";
                assertThat(sp.projection().data()).as(what + ": M").isEqualTo(in.projection().data());
                assertThat(sp.batches()).as(what).hasSameSizeAs(in.batches());
                for (int b = 0; b < in.batches().size(); b++) {
                    assertRelativelyClose(sp.batches().get(b).rows().data(), in.batches().get(b).rows().data(), REL, what + " batch " + b);
                    assertThat(sp.batches().get(b).counts()).as(what + " counts").isEqualTo(in.batches().get(b).counts());
                }
                assertThat(sp.rowNoiseStd()).isEqualTo(in.rowNoiseStd());
                assertThat(sp.privacy()).as(what + ": privacy statement").isEqualTo(in.privacy());
                assertThat(onSpark.spent()).isEqualTo(local.spent());
                assertThat(onSpark.events().toString()).isEqualTo(local.events().toString());
            }
        }
    }

    @Test
    void theProjectionOfEachRowDoesNotDependOnThePartitioning() {
        JlProjection m = JlProjection.draw(data.dimension(), 5, NoiseSource.seeded(3));
        DenseMatrix local = Dpot.inProcess(data.matrix()).project(m.matrix(), 1.0);
        for (int partitions : new int[] {1, 2, 7}) {
            SparkDpot.Projected p = SparkDpot.project(ordered(data, partitions), CLASSES, m.matrix(), 1.0, data.rows().length);
            assertThat(p.codes()).isEqualTo(data.codes(CLASSES));
            assertRelativelyClose(p.rows().data(), local.data(), REL, "projection on " + partitions + " partition(s)");
        }
        DenseMatrix unclipped = Dpot.inProcess(data.matrix()).project(m.matrix(), Double.NaN);
        assertRelativelyClose(SparkDpot.project(ordered(data, 3), CLASSES, m.matrix(), Double.NaN, data.rows().length).rows().data(),
                unclipped.data(), REL, "projection without clipping");
    }

    /** The Spark path through the methods module's harness: replace-one pairs, adversarial and random. */
    @Test
    void onReplaceOneNeighboursTheSparkProjectionMovesOneRowByAtMostTwoRNormM() {
        double clip = 1.0;
        Neighbours.Labelled base = Neighbours.random(60, 8, 3, 3 * clip, 41);
        JlProjection m = JlProjection.draw(8, 6, NoiseSource.seeded(9));
        double perRow = 2 * clip * m.spectralNorm(); // the per-row factor of Dpot.rowSensitivity at the record level
        DpotConfig cfg = DpotConfig.defaults();
        assertThat(Dpot.rowSensitivity(cfg, m, 3)).isCloseTo(Math.sqrt(4) * perRow, org.assertj.core.api.Assertions.within(1e-12));
        List<Neighbours.Pair> pairs = Neighbours.replaceOne(base, 3 * clip, 43);
        assertThat(pairs).hasSizeGreaterThan(3);
        for (Neighbours.Pair pair : pairs) {
            DenseMatrix pd = SparkDpot.project(table(pair.d(), 2), names(3), m.matrix(), clip, base.n()).rows();
            DenseMatrix pd2 = SparkDpot.project(table(pair.dPrime(), 2), names(3), m.matrix(), clip, base.n()).rows();
            DenseMatrix diff = pd.minus(pd2);
            for (int i = 0; i < base.n(); i++) {
                double sq = 0;
                for (int j = 0; j < diff.cols(); j++) {
                    sq += diff.get(i, j) * diff.get(i, j);
                }
                if (i != pair.index()) {
                    assertThat(sq).as(pair.kind() + ": row " + i + " unchanged").isZero();
                } else {
                    ReleaseComparison.assertWithin(Math.sqrt(sq), perRow, 1e-12, pair.kind());
                }
            }
        }
    }

    static List<String> names(int q) {
        List<String> n = new ArrayList<>();
        for (int c = 0; c < q; c++) {
            n.add("c" + c);
        }
        return n;
    }

    static SparkTable table(Neighbours.Labelled l, int partitions) {
        String[] labels = new String[l.y().length];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = "c" + l.y()[i];
        }
        return ordered(new SparkTestSupport.Rows(l.x(), labels), partitions);
    }

    @Test
    void whatTheInProcessReleaseRefusesIsRefusedBeforeAnyCharge() {
        DpotConfig cfg = DpotConfig.defaults();
        PrivacySession s = session(1, NeighbouringRelation.REPLACE_ONE);
        assertThatThrownBy(() -> SparkDpot.release(ordered(data, 2), List.of("a", "b"), cfg, s, "r", "l2"))
                .hasMessageContaining("outside the declared classes");
        PrivacySession addRemove = session(1, NeighbouringRelation.ADD_OR_REMOVE_ONE);
        assertThatThrownBy(() -> SparkDpot.release(ordered(data, 2), CLASSES, cfg, addRemove, "r", "l2"))
                .hasMessageContaining("replace-one");
        SparkTable unlabelled = SparkData.of(data.frame(spark), data.featureNames(), null);
        assertThatThrownBy(() -> SparkDpot.release(unlabelled, CLASSES, cfg, s, "r", "l2")).hasMessageContaining("label column");
        assertThat(s.spent().epsilon()).isZero();
        assertThat(addRemove.spent().epsilon()).isZero();
    }
}
