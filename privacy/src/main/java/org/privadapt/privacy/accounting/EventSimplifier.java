package org.privadapt.privacy.accounting;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.NoOpEvent;
import org.privadapt.privacy.events.SelfComposedEvent;

/**
 * Rewrites a composition into an equivalent, cheaper one before accounting (a ledger's total is a long list of
 * releases): compositions are flattened, no-ops dropped, equal events grouped into one self-composition, and all
 * plain Gaussian events merged into one. The last step is exact: the privacy loss of the Gaussian mechanism with
 * noise multiplier s is N(1/(2s^2), 1/s^2), composition adds means and variances, so k Gaussians compose to the
 * Gaussian with {@code 1/s^2 = sum_i 1/s_i^2} under every accountant's analysis.
 */
public final class EventSimplifier {
    private EventSimplifier() {
    }

    public static DpEvent simplify(DpEvent event) {
        Map<DpEvent, Long> counts = new LinkedHashMap<>();
        double[] gaussianPrecision = {0}; // sum of multiplicity / s^2
        boolean[] anyGaussian = {false};
        flatten(event, 1, counts, gaussianPrecision, anyGaussian);
        List<DpEvent> out = new ArrayList<>();
        if (anyGaussian[0]) {
            double p = gaussianPrecision[0];
            out.add(new GaussianEvent(Double.isInfinite(p) ? 0.0 : 1.0 / Math.sqrt(p)));
        }
        counts.forEach((e, k) -> out.add(k == 1 ? e : new SelfComposedEvent(e, k)));
        if (out.isEmpty()) {
            return new NoOpEvent();
        }
        return out.size() == 1 ? out.get(0) : new ComposedEvent(out);
    }

    private static void flatten(DpEvent e, long times, Map<DpEvent, Long> counts, double[] precision, boolean[] anyGaussian) {
        if (times == 0 || e instanceof NoOpEvent) {
            return;
        }
        if (e instanceof ComposedEvent c) {
            for (DpEvent x : c.events()) {
                flatten(x, times, counts, precision, anyGaussian);
            }
        } else if (e instanceof SelfComposedEvent s) {
            flatten(s.event(), Math.multiplyExact(times, s.count()), counts, precision, anyGaussian);
        } else if (e instanceof GaussianEvent g) {
            anyGaussian[0] = true;
            double s2 = g.noiseMultiplier() * g.noiseMultiplier();
            precision[0] += s2 == 0 ? Double.POSITIVE_INFINITY : times / s2;
        } else {
            counts.merge(e, times, Long::sum);
        }
    }
}
