package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.spark.SparkTestSupport.CLASSES;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.ClassLabels;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.gmmuda.GmmUdaConfig;
import org.privadapt.methods.gmmuda.SourceRelease;
import org.privadapt.models.mixture.GaussianMixture;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Paper 004's source release ({@code dp-uda-gmm}) with the rows on Spark (local[2]) against the in-process
 * {@link SourceRelease#trainPrivate}: on the same seeded noise, with the rows in the same order (1 and 3 partitions),
 * the encoder's and classifier's weights and the DP-EM mixture (weights, means, covariances; diagonal and full) are
 * equal to 1e-9 relative, the release's event and parameters equal, and the ledger holds the same charges; what the
 * in-process release refuses (replace-one) and what the rows cannot give (no label column, a NaN, a label outside the
 * classes, fewer than two classes) is refused before anything is charged, and a plan over the budget is refused whole;
 * nothing stays cached on the executors after a release or a refusal (issue 31).
 */
class SparkGmmUdaSourceTest {
    static final double REL = 1e-9;
    static final NeighbouringRelation AR = NeighbouringRelation.ADD_OR_REMOVE_ONE;
    static SparkSession spark;
    static SparkTestSupport.Rows data;

    @TempDir
    Path dir;

    @AfterAll
    static void report() {
        SparkTestSupport.reportWorst("dp-uda-gmm source release (Spark vs in-process)");
    }

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        data = SparkTestSupport.generate(240, 6, 41);
    }

    /** Encoder 6 -> 5 (tanh), q = 40 / 240, 2 epochs (12 steps), K = 2, T = 3. */
    static GmmUdaConfig config(String covariance) {
        return GmmUdaConfig.from(new MethodConfig("lr", 1e-3, 3L, Map.of("hidden", "5", "epochs", "2", "batch", "40", "lr", "0.05",
                "clip", "0.5", "weight-decay", "0.01", "components", "2", "em-iterations", "3", "covariance", covariance)));
    }

    PrivacySession session(String name, double epsilon, NeighbouringRelation relation) throws Exception {
        BudgetLedger ledger = BudgetLedger.openOrCreate(dir.resolve(name + ".ledger"), "source", new PrivacyBudget(epsilon, 1e-5), relation);
        return new PrivacySession("source", new PrivacyBudget(epsilon, 1e-5), relation, NoiseSource.seeded(17), ledger);
    }

    static void assertSame(SourceRelease spark, SourceRelease local, String what) {
        List<DenseLayer> a = spark.model().layers();
        List<DenseLayer> b = local.model().layers();
        assertThat(a).hasSameSizeAs(b);
        for (int l = 0; l < b.size(); l++) {
            assertRelativelyClose(a.get(l).weights().data(), b.get(l).weights().data(), REL, what + ", layer " + l + " weights");
            assertRelativelyClose(a.get(l).bias(), b.get(l).bias(), REL, what + ", layer " + l + " bias");
        }
        GaussianMixture ga = spark.mixture();
        GaussianMixture gb = local.mixture();
        assertThat(ga.covarianceType()).isEqualTo(gb.covarianceType());
        assertThat(ga.components()).isEqualTo(gb.components()).isEqualTo(2);
        assertThat(ga.dimension()).isEqualTo(gb.dimension()).isEqualTo(5);
        assertRelativelyClose(ga.weights(), gb.weights(), REL, what + ", mixture weights");
        assertRelativelyClose(ga.means().data(), gb.means().data(), REL, what + ", mixture means");
        for (int k = 0; k < gb.components(); k++) {
            assertRelativelyClose(ga.covariance(k).data(), gb.covariance(k).data(), REL, what + ", mixture covariance " + k);
        }
        assertThat(spark.event()).isEqualTo(local.event());
        assertThat(spark.parameters()).isEqualTo(local.parameters());
    }

    /** The ledger's entries but for their time and hash. */
    static List<List<Object>> entries(Path file) throws Exception {
        return BudgetLedger.open(file).read().entries().stream().map(e -> List.<Object>of(e.seq(), e.label(), e.mechanism(), e.event(),
                e.relation(), e.sampler(), e.secureNoise(), e.parameters(), e.epsilonAfter(), e.accountant())).toList();
    }

    @Test
    void theReleaseEqualsTheInProcessOneOnTheSameSeededNoiseAndChargesTheSameLedger() throws Exception {
        ClassLabels labels = new ClassLabels(data.codes(CLASSES), CLASSES);
        for (String cov : new String[] {"diag", "full"}) {
            GmmUdaConfig c = config(cov);
            PrivacySession ls = session("local-" + cov, 4, AR);
            SourceRelease local = SourceRelease.trainPrivate(data.matrix(), labels, c, ls);
            List<List<Object>> localLedger = entries(dir.resolve("local-" + cov + ".ledger"));
            assertThat(localLedger).hasSize(2);
            for (int partitions : new int[] {1, 3}) {
                String name = "spark-" + cov + "-" + partitions;
                PrivacySession ss = session(name, 4, AR);
                int cachedBefore = spark.sparkContext().getPersistentRDDs().size();
                SourceRelease distributed = SparkGmmUdaSource.trainPrivate(data.ordered(spark, partitions), CLASSES, c, ss);
                assertThat(spark.sparkContext().getPersistentRDDs().size()).as("rows and features released").isEqualTo(cachedBefore);
                assertSame(distributed, local, cov + ", " + partitions + " partition(s)");
                assertThat(ss.events()).as("charges").isEqualTo(ls.events());
                assertThat(ss.spent()).isEqualTo(ls.spent());
                assertThat(entries(dir.resolve(name + ".ledger"))).as("ledger").isEqualTo(localLedger);
            }
        }
    }

    @Test
    void whatTheInProcessReleaseRefusesIsRefusedBeforeAnyCharge() throws Exception {
        GmmUdaConfig c = config("diag");
        SparkTable table = data.ordered(spark, 2);
        int cachedBefore = spark.sparkContext().getPersistentRDDs().size();
        PrivacySession replace = session("replace", 4, NeighbouringRelation.REPLACE_ONE);
        assertThatThrownBy(() -> SparkGmmUdaSource.trainPrivate(table, CLASSES, c, replace)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("add/remove");
        assertThat(replace.events()).isEmpty();

        double[] nan = new double[6];
        nan[1] = Double.NaN;
        List<Object[]> refused = List.of(
                new Object[] {data.plus(nan, "a").ordered(spark, 2), CLASSES, "non-finite"},
                new Object[] {table, List.of("a", "b"), "outside the declared classes"},
                new Object[] {table, List.of("a"), "two distinct classes"},
                new Object[] {table, List.of("a", "b", "a"), "two distinct classes"},
                new Object[] {new SparkTable(table.rows().select(SparkTable.FEATURES), table.featureNames(), null), CLASSES, "label column"});
        for (Object[] r : refused) {
            PrivacySession s = session("refused", 4, AR);
            Path file = dir.resolve("refused.ledger");
            byte[] before = Files.readAllBytes(file);
            @SuppressWarnings("unchecked")
            List<String> classes = (List<String>) r[1];
            assertThatThrownBy(() -> SparkGmmUdaSource.trainPrivate((SparkTable) r[0], classes, c, s))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining((String) r[2]);
            assertThat(s.events()).as((String) r[2]).isEmpty();
            assertThat(Files.readAllBytes(file)).as((String) r[2] + ": ledger unchanged").isEqualTo(before);
        }

        // a plan over what is left of the budget: refused whole, nothing spent, the cached rows released
        PrivacySession small = session("small", 4, AR);
        small.charge("earlier", "test", new GaussianEvent(1.2), Map.of());
        List<org.privadapt.privacy.events.DpEvent> before = small.events();
        assertThatThrownBy(() -> SparkGmmUdaSource.trainPrivate(table, CLASSES, c, small)).isInstanceOf(BudgetExceededException.class);
        assertThatThrownBy(() -> SourceRelease.trainPrivate(data.matrix(), new ClassLabels(data.codes(CLASSES), CLASSES), c, small))
                .as("in process too").isInstanceOf(BudgetExceededException.class);
        assertThat(small.events()).isEqualTo(before);
        assertThat(spark.sparkContext().getPersistentRDDs().size()).as("nothing left cached").isEqualTo(cachedBefore);
    }
}
