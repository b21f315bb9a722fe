package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.data.Dataset;
import org.privadapt.data.Provenance;
import org.privadapt.data.RealTargets;
import org.privadapt.methods.bassily.BassilyMethods;
import org.privadapt.methods.bassily.PrivateSample;
import org.privadapt.methods.bassily.SupervisedProtocol;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Paper 003's protocol with the target's pool on Spark ({@link SparkSupervised}) against the in-process protocol on the
 * same rows in the same order: the same split and public parts (bit for bit: they are the same rows through the same
 * code), and with the same seeded noise the same run of dp-target-only and pcnvxadap-stats (predictions and MSE to
 * 1e-9 relative, the diagnostics, calibration and charged events identical), with and without the public reduction,
 * with a subsampled source and rows handed to the source.
 */
class SparkSupervisedTest {
    static final double REL = 1e-9;
    static SparkSession spark;
    static SparkTestSupport.Rows pool;
    static Dataset source;

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        pool = SparkBassilyTest.regression(420, 7, 21);
        SparkTestSupport.Rows pub = SparkBassilyTest.regression(150, 7, 22);
        source = dataset(pub, "source");
    }

    @AfterAll
    static void report() {
        SparkTestSupport.reportWorst("paper 003's protocol on Spark vs in process");
    }

    static Dataset dataset(SparkTestSupport.Rows rows, String domain) {
        return new Dataset(domain, rows.matrix(), new RealTargets(SparkBassilyTest.targets(rows), "label"), null,
                Provenance.generated("test rows"));
    }

    /** The rows as a table in their order, over the session's default partitions (more than one: local[2]). */
    static SparkTable ordered(SparkTestSupport.Rows rows) {
        SparkTable t = SparkData.of(rows.frame(spark), rows.featureNames(), "y");
        assertThat(t.rows().rdd().getNumPartitions()).isGreaterThan(1);
        return t;
    }

    static PrivacySession session(long seed) {
        return new PrivacySession("target", new PrivacyBudget(2, 1e-5), NeighbouringRelation.REPLACE_ONE, NoiseSource.seeded(seed), null);
    }

    /** The in-process protocol, as {@code SupervisedProtocol.draw} assembles it from a task's pool. */
    static SupervisedProtocol inProcess(MethodConfig c) throws Exception {
        Dataset p = dataset(pool, "target");
        SupervisedProtocol.Split split = SupervisedProtocol.split(p.size(), c);
        return SupervisedProtocol.assemble(source, split, split.publicRows(p), p.selectRows(split.train(), "train"), c);
    }

    static final MethodConfig[] CONFIGS = {
        MethodConfig.defaults().withSeed(5).withParam("public-subspace", "off"),
        MethodConfig.defaults().withSeed(6).withParam("public-subspace", "3"),
        MethodConfig.defaults().withSeed(7).withParam("target-train", "120").withParam("source-rows", "100")
                .withParam("source-from-target", "30"),
    };

    @Test
    void thePublicPartsAreTheInProcessOnes() throws Exception {
        for (MethodConfig c : CONFIGS) {
            SupervisedProtocol local = inProcess(c);
            SparkSupervised.Drawn drawn = SparkSupervised.draw(source, ordered(pool), c);
            SupervisedProtocol remote = drawn.protocol();
            assertThat(remote.xTrain()).isNull();
            assertThat(remote.n()).isEqualTo(local.n());
            assertThat(remote.testRows()).isEqualTo(local.testRows());
            assertThat(remote.xSource().data()).isEqualTo(local.xSource().data());
            assertThat(remote.xValidation().data()).isEqualTo(local.xValidation().data());
            assertThat(remote.xTest().data()).isEqualTo(local.xTest().data());
            assertThat(((RealTargets) remote.yValidation()).values()).isEqualTo(((RealTargets) local.yValidation()).values());
            assertThat(((RealTargets) remote.yTest()).values()).isEqualTo(((RealTargets) local.yTest()).values());
            assertThat(remote.scaling().mean()).isEqualTo(local.scaling().mean());
        }
    }

    @Test
    void bothMethodsRunAsInProcessOnTheSameSeededNoise() throws Exception {
        for (MethodConfig c : CONFIGS) {
            // one draw per configuration serves both methods (a draw is read-only: each run has its own session)
            SupervisedProtocol local = inProcess(c);
            SparkSupervised.Drawn drawn = SparkSupervised.draw(source, ordered(pool), c);
            for (String method : BassilyMethods.ON_A_SAMPLE) {
                PrivacySession here = session(31);
                AdaptationOutcome expected = BassilyMethods.runOnSample(method, local, PrivateSample.of(local), c, here);
                PrivacySession there = session(31);
                AdaptationOutcome actual = BassilyMethods.runOnSample(method, drawn.protocol(), drawn.sample(), c, there);
                String what = method + " " + c.params();
                assertRelativelyClose(actual.values(), expected.values(), REL, what + " predictions");
                assertRelativelyClose(new double[] {actual.mse()}, new double[] {expected.mse()}, REL, what + " mse");
                assertThat(actual.diagnostics().keySet()).as(what).isEqualTo(expected.diagnostics().keySet());
                for (String k : expected.diagnostics().keySet()) {
                    Object e = expected.diagnostics().get(k);
                    Object a = actual.diagnostics().get(k);
                    if (e instanceof Double de && a instanceof Double da) {
                        assertRelativelyClose(new double[] {da}, new double[] {de}, REL, what + " " + k);
                    } else {
                        assertThat(a).as(what + " " + k).isEqualTo(e);
                    }
                }
                assertThat(there.events()).as(what).isEqualTo(here.events());
            }
        }
    }

    @Test
    void aPoolWithATargetThatIsNotANumberIsRefusedBeforeAnythingIsCharged() {
        String[] labels = pool.labels().clone();
        labels[400] = "high";
        SparkTestSupport.Rows bad = new SparkTestSupport.Rows(pool.rows(), labels);
        assertThatThrownBy(() -> SparkSupervised.draw(source, ordered(bad), CONFIGS[0]))
                .hasMessageContaining("not a number");
    }
}
