package org.privadapt.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The delta a protected party may ask for, given its number of records n. An (epsilon, delta) guarantee with
 * delta >= 1/n promises nothing: the mechanism that publishes one uniformly chosen record in the clear is
 * (0, 1/n)-DP. Such a delta is refused unless {@code --allow-large-delta} is given; above 1/(10 n) a warning says
 * that the usual choice is smaller. The check reads n inside the party's own process, where it is known; it
 * releases nothing (docs/privacy/neighbouring-relations.md).
 */
public final class DeltaPolicy {
    private DeltaPolicy() {
    }

    /**
     * @throws UsageException when {@code delta >= 1/n} and {@code allowLarge} is false
     */
    public static void check(String party, double delta, int n, boolean allowLarge, PrintWriter err) {
        if (n < 1) {
            return;
        }
        double inv = 1.0 / n;
        if (delta >= inv) {
            String msg = String.format(Locale.ROOT, "--delta %s is at or above 1/n = %.3g for the %s's %d records: such a guarantee "
                    + "promises nothing (publishing one random record in the clear is (0, 1/n)-DP); use delta <= 1/(10 n) = %.2g, "
                    + "or pass --allow-large-delta", fmt(delta), inv, party, n, inv / 10);
            if (!allowLarge) {
                throw new UsageException(msg);
            }
            err.println("privadapt: warning: " + msg.replace(", or pass --allow-large-delta", "") + " (allowed by --allow-large-delta)");
        } else if (delta > inv / 10) {
            err.printf(Locale.ROOT, "privadapt: warning: --delta %s is above 1/(10 n) = %.2g for the %s's %d records; the usual "
                    + "choice is delta <= 1/(10 n)%n", fmt(delta), inv / 10, party, n);
        }
    }

    static String fmt(double d) {
        return String.format(Locale.ROOT, "%.3g", d).replaceAll("\\.?0+(e|$)", "$1");
    }
}
