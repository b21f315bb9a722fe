package org.privadapt.privacy.ledger;

import java.nio.file.Path;
import java.util.Map;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.events.GaussianEvent;

/** A child process for the crash and concurrency tests: charges small Gaussian releases until refused or killed. */
public final class LedgerHammer {
    private LedgerHammer() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int max = Integer.parseInt(args[1]);
        double sigma = Double.parseDouble(args[2]);
        double budget = Double.parseDouble(args[3]);
        BudgetLedger l = BudgetLedger.openOrCreate(file, "target", new PrivacyBudget(budget, 1e-5),
                NeighbouringRelation.ADD_OR_REMOVE_ONE);
        int ok = 0;
        for (int i = 0; i < max; i++) {
            try {
                l.charge(new BudgetLedger.Charge("hammer " + ProcessHandle.current().pid() + " #" + i, "gaussian vector",
                        new GaussianEvent(sigma), Map.of("i", i), "test sampler", true));
                ok++;
                if (args.length > 4) {
                    System.out.println("charged " + ok);
                    System.out.flush();
                }
            } catch (org.privadapt.privacy.BudgetExceededException e) {
                break;
            }
        }
        System.out.println(ok);
        System.out.flush();
    }
}
