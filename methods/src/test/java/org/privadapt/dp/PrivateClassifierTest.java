package org.privadapt.dp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.ledger.BudgetLedger;

class PrivateClassifierTest {
    @TempDir
    Path dir;

    static double[][] x = new double[2000][];
    static int[] y = new int[2000];

    static {
        SplittableRandom r = new SplittableRandom(9);
        for (int i = 0; i < y.length; i++) {
            y[i] = i % 2;
            double a = (y[i] == 0 ? -1 : 1) + 0.5 * r.nextGaussian();
            double b = r.nextGaussian();
            double norm = Math.hypot(a, b);
            x[i] = new double[] {a / Math.max(1, norm), b / Math.max(1, norm)};
        }
    }

    @Test
    void spendsAtMostItsEpsilonChargesTheLedgerFirstAndLearns() throws Exception {
        Path ledger = dir.resolve("l.json");
        PrivateClassifier clf = PrivateClassifier.builder().classes(2).learner("dp-sgd").epsilon(1).delta(1e-5).epochs(5).batch(100).sizeIsPublic()
                .ledger(ledger, 1.2).party("source").seed(3).build().fit(x, y);
        assertThat(clf.spentEpsilon()).isPositive().isLessThanOrEqualTo(1.0 + 1e-9);
        assertThat(clf.isPrivate()).isFalse(); // seeded
        assertThat(clf.score(x, y)).isGreaterThan(0.8);
        assertThat(clf.noiseMultiplier()).isPositive();
        assertThat(clf.steps()).isEqualTo(100); // ceil(epochs / (batch / n)) = 5 / 0.05
        BudgetLedger.Snapshot s = BudgetLedger.open(ledger).read();
        assertThat(s.entries()).hasSize(1);
        assertThat(s.epsilonSpent()).isCloseTo(clf.spentEpsilon(), org.assertj.core.api.Assertions.within(1e-9));
        // a second fit would exceed the ledger's 1.2 (two runs at 1 compose to more): refused before anything is drawn, the ledger unchanged
        byte[] before = Files.readAllBytes(ledger);
        PrivateClassifier again = PrivateClassifier.builder().classes(2).learner("dp-sgd").epsilon(1).epochs(5).batch(100).sizeIsPublic()
                .ledger(ledger, 1.2).party("source").build();
        assertThatThrownBy(() -> again.fit(x, y)).isInstanceOf(BudgetExceededException.class);
        assertThat(Files.readAllBytes(ledger)).isEqualTo(before);
        assertThatThrownBy(again::spentEpsilon).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void nMustBeDeclaredPublicUnderAddRemove() {
        PrivateClassifier clf = PrivateClassifier.builder().classes(2).learner("dp-sgd").epsilon(1).build();
        assertThatThrownBy(() -> clf.fit(x, y)).isInstanceOf(IllegalStateException.class).hasMessageContaining("reveals n");
        assertThatThrownBy(() -> PrivateClassifier.builder().build()).hasMessageContaining("epsilon");
        // the class count is never read from the labels (the same rule as Adaptation.run and the CLI)
        PrivateClassifier noClasses = PrivateClassifier.builder().learner("ncm").epsilon(1).build();
        assertThatThrownBy(() -> noClasses.fit(x, y)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("builder().classes(k)");
    }

    @Test
    void replaceOneNeedsNoDeclarationAndSecureNoiseIsPrivate() throws Exception {
        PrivateClassifier clf = PrivateClassifier.builder().classes(2).learner("dp-sgd").epsilon(2).epochs(3).batch(200).replaceOne().build().fit(x, y);
        assertThat(clf.isPrivate()).isTrue();
        assertThat(clf.spentEpsilon()).isLessThanOrEqualTo(2.0 + 1e-9);
    }

    @Test
    void theClassStatisticsLearnersNeedNoDeclaredSizeAndSpendAtMostTheirEpsilon() throws Exception {
        for (String learner : new String[] {"ncm", "lda", "output-perturbation", "objective-perturbation"}) {
            Path ledger = dir.resolve(learner + ".json");
            PrivateClassifier clf = PrivateClassifier.builder().classes(2).learner(learner).epsilon(4).delta(1e-5).ledger(ledger, 5)
                    .seed(7).build().fit(x, y); // no sizeIsPublic(): these releases do not reveal n
            assertThat(clf.learner()).isEqualTo(learner);
            assertThat(clf.steps()).isZero();
            assertThat(clf.spentEpsilon()).as(learner).isPositive().isLessThanOrEqualTo(4.0 + 1e-9);
            assertThat(BudgetLedger.open(ledger).read().entries()).hasSize(1);
            assertThat(clf.score(x, y)).as(learner).isGreaterThan(0.7);
        }
        // auto without a declared n never picks a learner that reveals it, even at a large epsilon
        PrivateClassifier auto = PrivateClassifier.builder().classes(2).learner("auto").epsilon(10).seed(7).build().fit(x, y);
        assertThat(auto.learner()).isEqualTo("ncm");
        PrivateClassifier autoPublic = PrivateClassifier.builder().classes(2).learner("auto").epsilon(10).sizeIsPublic().epochs(1).seed(7)
                .build().fit(x, y);
        assertThat(autoPublic.learner()).isEqualTo("dp-sgd");
        assertThatThrownBy(() -> PrivateClassifier.builder().classes(2).learner("svm")).hasMessageContaining("unknown learner");
        // hidden layers: auto means DP-SGD; a linear learner with hidden layers is refused before anything is charged
        PrivateClassifier net = PrivateClassifier.builder().classes(2).learner("auto").hidden(8).epsilon(2).sizeIsPublic().epochs(1).seed(7)
                .build().fit(x, y);
        assertThat(net.learner()).isEqualTo("dp-sgd");
        Path refusedLedger = dir.resolve("refused.json");
        assertThatThrownBy(() -> PrivateClassifier.builder().classes(2).learner("ncm").hidden(8).epsilon(2).ledger(refusedLedger, 5).build()
                .fit(x, y)).hasMessageContaining("hidden layers");
        assertThat(java.nio.file.Files.exists(refusedLedger)).isFalse(); // a new ledger is written by its first charge only
    }

    @Test
    void theDefaultLearnerIsTheCliRuleAuto() throws Exception {
        // issue 33: one default policy for the API and the CLI (learner=auto): the same learner for the same public facts
        for (double eps : new double[] {1, 2, 8}) {
            for (boolean sizePublic : new boolean[] {false, true}) {
                PrivateClassifier.Builder b = PrivateClassifier.builder().classes(2).epsilon(eps).epochs(1).seed(7);
                if (sizePublic) {
                    b.sizeIsPublic();
                }
                String expected = org.privadapt.methods.core.PrivateLearners.kind(
                        org.privadapt.methods.core.MethodConfig.defaults().withParam("learner", "auto"), x[0].length, 2, eps, sizePublic).label();
                assertThat(b.build().fit(x, y).learner()).as("eps %s, n public %s", eps, sizePublic).isEqualTo(expected);
            }
        }
    }
}
