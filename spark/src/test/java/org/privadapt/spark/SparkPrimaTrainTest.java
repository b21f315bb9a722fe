package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.spark.SparkTestSupport.CLASSES;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Dataset;
import org.privadapt.data.Provenance;
import org.privadapt.data.PublicFacts;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.SecondMoments;
import org.privadapt.methods.prima.SourceModel;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.models.dp.ClassStatistics;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * PRIMA/PRISA's source training with learner ncm, lda or adassp on Spark (local[2]) against {@link Prima#train} in process:
 * with the same seeded noise every weight and bias of every model, the target bases, the privacy statement and the
 * charges are equal (numbers to 1e-9 relative); the mapped rows' class statistics (the learner's exact query, for a
 * fixed map) do not depend on the partitioning (1, 3, 7) and equal the in-process ones; on neighbours they move by at
 * most the declared sensitivity; a label outside the given classes or a learner that is not a sum is refused before
 * any charge.
 */
class SparkPrimaTrainTest {
    static final double REL = 1e-9;
    static SparkSession spark;
    static SparkTestSupport.Rows target;
    static SparkTestSupport.Rows source;
    static final PublicFacts DECLARED = PublicFacts.parse(List.of("classes", "schema"), "source");

    @AfterAll
    static void report() {
        SparkTestSupport.reportWorst("PRIMA source training, ncm/lda/adassp (Spark vs in-process, and across partitionings)");
    }

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        target = SparkTestSupport.generate(250, 8, 11);
        source = SparkTestSupport.generate(300, 8, 12);
    }

    static TargetRelease release(PrimaConfig.Adaptation a, String ensemble) throws Exception {
        PrimaConfig base = PrimaConfig.prima(a).with(PrimaConfig.Partitioning.RANDOM, true);
        PrimaConfig cfg = PrimaConfig.from(base, new MethodConfig("lr", 0, 1, Map.of("block-size", "4", "row-bound", "3.0",
                "ensemble", ensemble)));
        Dataset t = new Dataset("t", target.matrix(), null, null, Provenance.generated("spark test"));
        return Prima.release(t, cfg, "none", a == PrimaConfig.Adaptation.CORAL ? "prima" : "prisa", 5, "run",
                SparkPrimaTest.session(NeighbouringRelation.ADD_OR_REMOVE_ONE));
    }

    static Dataset sourceDataset() {
        return new Dataset("s", source.matrix(), ClassLabels.fromStrings(Arrays.asList(source.labels())), null,
                Provenance.generated("spark test")).withPublicFacts(DECLARED);
    }

    static PrivacySession session(NeighbouringRelation rel) {
        return new PrivacySession("source", new PrivacyBudget(2.0, 1e-5), rel, NoiseSource.seeded(41), null);
    }

    static MethodConfig learner(String l) {
        return new MethodConfig("lr", 0, 1, Map.of("learner", l, "learner-row-bound", "2.0"));
    }

    static void assertSame(SourceModel spark, SourceModel local, String what) {
        assertThat(spark.classNames()).isEqualTo(local.classNames());
        assertThat(spark.groups()).hasSameSizeAs(local.groups());
        for (int g = 0; g < local.groups().size(); g++) {
            assertThat(spark.groups().get(g)).hasSameSizeAs(local.groups().get(g));
            for (int m = 0; m < local.groups().get(g).size(); m++) {
                Network a = spark.groups().get(g).get(m);
                Network b = local.groups().get(g).get(m);
                assertThat(a.layers()).isEqualTo(b.layers());
                for (int l = 0; l < b.layers(); l++) {
                    assertRelativelyClose(a.weights(l).data(), b.weights(l).data(), REL, what + " group " + g + " weights " + l);
                    assertRelativelyClose(a.bias(l), b.bias(l), REL, what + " group " + g + " bias " + l);
                }
            }
        }
        for (int b = 0; b < local.targetBases().size(); b++) {
            DenseMatrix lb = local.targetBases().get(b);
            if (lb == null) {
                assertThat(spark.targetBases().get(b)).isNull();
            } else {
                assertThat(spark.targetBases().get(b).data()).isEqualTo(lb.data()); // the target's release: the same input
            }
        }
        assertThat(spark.privacy().toString()).as(what + " privacy statement").isEqualTo(local.privacy().toString());
    }

    @Test
    void theSourceModelEqualsTheInProcessOneOnTheSameSeededNoise() throws Exception {
        SparkTable table = source.table(spark, 3);
        int compared = 0;
        for (PrimaConfig.Adaptation a : PrimaConfig.Adaptation.values()) {
            for (String ensemble : new String[] {"joint", "vote"}) {
                TargetRelease r = release(a, ensemble);
                for (String l : new String[] {"ncm", "lda", "adassp"}) {
                    for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                        PrivacySession ls = session(rel);
                        PrivacySession ss = session(rel);
                        SourceModel local = Prima.train(sourceDataset(), r, learner(l), ls);
                        SourceModel onSpark = SparkPrimaTrain.train(table, r, learner(l), CLASSES, DECLARED, ss);
                        String what = a + " " + ensemble + " " + l + " " + rel;
                        assertSame(onSpark, local, what);
                        assertThat(ss.events()).as(what + " charges").isEqualTo(ls.events()).hasSize(2);
                        compared++;
                    }
                }
            }
        }
        assertThat(compared).isEqualTo(24);
    }

    /**
     * The gradient learners (dp-sgd with Poisson sampling, dp-gd) on the mapped rows where they are: the model and the
     * charges of {@link Prima#train} in process on the same seeded noise, with the rows in the same order (the sampling
     * picks rows by position), n declared public; one group (joint) and one per block (vote).
     */
    @Test
    void theGradientLearnersOnSparkEqualTheInProcessOnes() throws Exception {
        PublicFacts declared = PublicFacts.parse(List.of("size", "classes", "schema"), "source");
        org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> frame = source.frame(spark);
        SparkTable ordered = SparkData.of(spark.createDataFrame(new org.apache.spark.api.java.JavaSparkContext(spark.sparkContext())
                .parallelize(frame.collectAsList(), 3), frame.schema()), source.featureNames(), "y");
        Dataset sizeDeclared = new Dataset("s", source.matrix(), ClassLabels.fromStrings(Arrays.asList(source.labels())), null,
                Provenance.generated("spark test")).withPublicFacts(declared);
        for (String ensemble : new String[] {"joint", "vote"}) {
            TargetRelease r = release(PrimaConfig.Adaptation.CORAL, ensemble);
            for (String l : new String[] {"dp-sgd", "dp-gd"}) {
                MethodConfig mc = new MethodConfig("lr", 0, 1, Map.of("learner", l, "epochs", "2", "batch", "64"));
                PrivacySession ls = session(NeighbouringRelation.ADD_OR_REMOVE_ONE);
                PrivacySession ss = session(NeighbouringRelation.ADD_OR_REMOVE_ONE);
                SourceModel local = Prima.train(sizeDeclared, r, mc, ls);
                SourceModel onSpark = SparkPrimaTrain.train(ordered, r, mc, CLASSES, declared, ss);
                String what = ensemble + " " + l;
                assertSame(onSpark, local, what);
                assertThat(ss.events()).as(what + " charges").isEqualTo(ls.events());
            }
        }
    }

    /** The map of a fixed (seeded) source moment release: a post-processing of DP outputs, public for the test. */
    static Prima.SourceTransform transform(TargetRelease r) {
        SecondMoments sm = SparkPrimaSource.noisyMoments(source.table(spark, 2), r, 1.0, NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(3));
        return Prima.sourceAlignment(sm, r).transform();
    }

    @Test
    void theMappedClassStatisticsEqualTheInProcessOnesOnEveryPartitioning() throws Exception {
        TargetRelease r = release(PrimaConfig.Adaptation.SA, "vote");
        Prima.SourceTransform tr = transform(r);
        assertThat(tr.groups()).isGreaterThan(1);
        DenseMatrix clipped = DenseMatrix.fromRows(Arrays.stream(source.rows())
                .map(x -> Prima.clipRow(x, r.config().rowBound(), Prima.blockIndex(r.partition()), r.config().blockBounds(r.partition())))
                .toArray(double[][]::new));
        List<DenseMatrix> features = tr.blockFeatures(clipped);
        int[] y = source.codes(CLASSES);
        for (int g = 0; g < tr.groups(); g++) {
            DenseMatrix x = Prima.SourceTransform.group(features, g, true);
            ClassStatistics ncmLocal = PrivateLearners.ncmExact(x, y, 3);
            for (int parts : new int[] {1, 3, 7}) {
                SparkTable mapped = SparkPrimaTrain.mapped(source.table(spark, parts), r, tr, g);
                assertThat(mapped.dimension()).isEqualTo(x.cols());
                SparkClassStatisticsTest.assertSame(SparkClassStatistics.ncmExact(mapped, CLASSES), ncmLocal,
                        "ncm group " + g + ", " + parts + " partitions");
                ClassStatistics lda = SparkClassStatistics.ldaExact(mapped, CLASSES, 2.0);
                assertRelativelyClose(lda.moment().data(), ldaLocal(x, y).moment().data(), REL,
                        "lda moment group " + g + ", " + parts + " partitions");
            }
        }
    }

    static ClassStatistics ldaLocal(DenseMatrix x, int[] y) {
        PrivateLearners.Plan p = PrivateLearners.plan(learner("lda"), x.rows(), x.cols(), 3, 1.0, 1e-5,
                NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1);
        return PrivateLearners.ldaExact(p, x, y, 3);
    }

    @Test
    void onNeighboursTheMappedStatisticsMoveByAtMostTheSensitivity() throws Exception {
        TargetRelease r = release(PrimaConfig.Adaptation.CORAL, "joint");
        Prima.SourceTransform tr = transform(r); // fixed: computed once, from a DP output
        double[] far = new double[source.dimension()];
        Arrays.fill(far, 40.0);
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            SparkTestSupport.Rows dPrime = rel == NeighbouringRelation.REPLACE_ONE
                    ? source.replacing(4, far, source.labels()[4].equals("a") ? "b" : "a") : source.plus(far, "c");
            SparkTable a = SparkPrimaTrain.mapped(source.table(spark, 2), r, tr, 0);
            SparkTable b = SparkPrimaTrain.mapped(dPrime.table(spark, 3), r, tr, 0);
            double[] ncm = SparkClassStatisticsTest.moves(SparkClassStatistics.ncmExact(a, CLASSES), SparkClassStatistics.ncmExact(b, CLASSES));
            assertThat(ncm[1]).as("ncm sums " + rel).isLessThanOrEqualTo(ClassStatistics.sensitivities(rel, 1.0).sum() * (1 + REL))
                    .isGreaterThan(0.0);
            ClassStatistics.Sensitivities s = ClassStatistics.sensitivities(rel, 2.0);
            double[] lda = SparkClassStatisticsTest.moves(SparkClassStatistics.ldaExact(a, CLASSES, 2.0),
                    SparkClassStatistics.ldaExact(b, CLASSES, 2.0));
            assertThat(lda[0]).as("lda counts " + rel).isLessThanOrEqualTo(s.count() * (1 + REL));
            assertThat(lda[1]).as("lda sums " + rel).isLessThanOrEqualTo(s.sum() * (1 + REL)).isGreaterThan(0.0);
            assertThat(lda[2]).as("lda moment " + rel).isLessThanOrEqualTo(s.moment() * (1 + REL)).isGreaterThan(0.0);
        }
    }

    @Test
    void aLabelOutsideTheClassesOrALearnerThatIsNotASumIsRefusedBeforeAnyCharge() throws Exception {
        TargetRelease r = release(PrimaConfig.Adaptation.CORAL, "joint");
        PrivacySession s = session(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        assertThatThrownBy(() -> SparkPrimaTrain.train(source.table(spark, 2), r, learner("ncm"), List.of("a", "b"), DECLARED, s))
                .hasMessageContaining("label outside the declared classes");
        assertThatThrownBy(() -> SparkPrimaTrain.train(source.table(spark, 2), r, learner("dp-sgd"), CLASSES, DECLARED, s))
                .hasMessageContaining("reveals n"); // n not declared public under add/remove
        assertThatThrownBy(() -> SparkPrimaTrain.train(source.table(spark, 2), r, learner("output-perturbation"), CLASSES, DECLARED, s))
                .hasMessageContaining("on Spark the source trains").hasMessageContaining("dp-sgd or dp-gd");
        double[] bad = new double[source.dimension()];
        bad[0] = Double.NaN;
        assertThatThrownBy(() -> SparkPrimaTrain.train(source.plus(bad, "a").table(spark, 2), r, learner("ncm"), CLASSES, DECLARED, s))
                .hasMessageContaining("non-finite");
        assertThat(s.events()).isEmpty();
    }
}
