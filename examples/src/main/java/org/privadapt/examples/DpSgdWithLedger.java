package org.privadapt.examples;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.privadapt.dp.PrivateClassifier;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * A DP-SGD model for a target epsilon, charged to a budget ledger before training (as Opacus's
 * make_private_with_epsilon, plus the ledger). Run it twice on the same ledger: the second fit is refused when the
 * budget cannot pay for both runs. Argument: the ledger file (default: a new temporary file).
 */
public final class DpSgdWithLedger {
    public static void main(String[] args) throws Exception {
        Path ledger = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("privadapt").resolve("party.ledger");
        Random r = new Random(2);
        int n = 5000;
        double[][] x = new double[n][];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 3;
            x[i] = new double[] {Math.cos(2 * Math.PI * y[i] / 3) + 0.3 * r.nextGaussian(),
                Math.sin(2 * Math.PI * y[i] / 3) + 0.3 * r.nextGaussian()};
        }
        PrivateClassifier clf = PrivateClassifier.builder().learner("dp-sgd")
                .epsilon(1.0).delta(1e-5).epochs(5).batch(250).clip(1.0)
                .sizeIsPublic().classes(3)               // n and the class count are public in this example
                .ledger(ledger, 3.0).party("hospital")   // the party's total budget: 3
                .build()
                .fit(x, y);                              // charges the ledger, then trains with secure noise
        System.out.printf("accuracy %.1f %%, spent epsilon %.3f (noise multiplier %.3f, %d steps)%n",
                100 * clf.score(x, y), clf.spentEpsilon(), clf.noiseMultiplier(), clf.steps());
        BudgetLedger.Snapshot s = BudgetLedger.open(ledger).read();
        System.out.printf("ledger %s: %d release(s), epsilon %.3f of %.1f spent%n", ledger, s.entries().size(),
                s.epsilonSpent(), s.budget().epsilon());
    }
}
