package org.privadapt.privacy.accounting;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.LaplaceEvent;
import org.privadapt.privacy.events.NoOpEvent;
import org.privadapt.privacy.events.NonPrivateEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.events.PoissonSampledRowsEvent;
import org.privadapt.privacy.events.RepeatAndSelectEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.events.WorstOfEvent;

/**
 * Rényi differential privacy accountant (Mironov 2017) on a fixed grid of orders.
 *
 * <p>Per event, the RDP curve {@code r(alpha)}:
 * <ul>
 *   <li>Gaussian with noise multiplier s: {@code alpha / (2 s^2)}.</li>
 *   <li>Laplace with b = noise multiplier (Mironov 2017, Table II):
 *       {@code 1/(alpha-1) log( alpha/(2alpha-1) e^{(alpha-1)/b} + (alpha-1)/(2alpha-1) e^{-alpha/b} )}.</li>
 *   <li>Poisson-subsampled Gaussian (Mironov, Talwar, Zhang 2019, Sec. 3.3), see {@link SampledGaussianRdp}:
 *       exact for integer orders, the two-sided signed series for fractional orders.</li>
 *   <li>Poisson-sampled per-record releases ({@link PoissonSampledRowsEvent}, replace-one only):
 *       {@code log(1 + q (exp((alpha-1) r_inner(alpha)) - 1)) / (alpha - 1)} by joint convexity.</li>
 *   <li>Composition adds curves; self-composition multiplies.</li>
 *   <li>{@link WorstOfEvent}: the pointwise maximum of its parts' curves (joint quasi-convexity of the Rényi
 *       divergence).</li>
 *   <li>{@link RepeatAndSelectEvent} (Papernot and Steinke 2022, Theorem 2): with the inner curve r, K drawn from the
 *       truncated negative binomial with shape eta and parameter gamma (set by the mean), {@code r(a) + log(E[K]) /
 *       (a - 1) + (1 + eta) min_b [(1 - 1/b) r(b) + log(1/gamma) / b]}, the minimum over this grid's orders b, then
 *       made non-decreasing in the order (RDP is); see {@link #repeatAndSelect}.</li>
 * </ul>
 * Poisson subsampling of the Gaussian is analysed under add/remove neighbours (MTZ 2019) and, under replace-one, by
 * the weak triangle inequality over remove-then-add ({@link #sampledGaussianReplaceCurve}); subsampled Laplace is
 * refused (no analysis implemented here; the PLD accountant has one). Orders at which the subsampled Gaussian's
 * series does not converge are dropped (+infinity) with a warning; the result stays a valid upper bound.
 *
 * <p>Conversion to (epsilon, delta) uses the bound of Balle et al. 2020 (Thm 21) / Canonne, Kamath, Steinke 2020
 * (Prop. 12): {@code eps = r(alpha) + log(1 - 1/alpha) - (log delta + log alpha) / (alpha - 1)}, minimised over the
 * grid, floored at 0; an order whose RDP r satisfies {@code delta^2 + expm1(-r) >= 0} gives epsilon 0 (since
 * RDP bounds the KL divergence and {@code TV <= sqrt(1 - e^{-KL})}, as dp_accounting does). When the minimum sits
 * at the smallest or largest order a warning is issued, because a wider grid could give a smaller epsilon.
 */
public final class RdpAccountant implements PrivacyAccountant {

    /**
     * The default order grid (as Google's dp_accounting): 1.1, 1.2, ..., 10.9, then 11, 12, ..., 63, then 128, 256,
     * 512, 1024. It contains Opacus' default grid (which stops at 63 and starts its integers at 12).
     */
    public static final double[] DEFAULT_ORDERS = defaultOrders();

    private final NeighbouringRelation relation;
    private final double[] orders;
    /** The orders as a list: part of the memo key of {@link #sampledGaussianCurve}. */
    private final List<Double> orderList;
    private final Consumer<String> warnings;

    public RdpAccountant(NeighbouringRelation relation) {
        this(relation, DEFAULT_ORDERS, w -> System.err.println("privadapt: warning: " + w));
        this.reportDropped = VERBOSE;
    }

    /**
     * Whether the fallback for fractional orders whose series does not converge is reported. It keeps the bound
     * valid, so with the default (standard error) warnings it is said only when {@code PRIVADAPT_VERBOSE=1}; a caller
     * that passes its own warning consumer receives it always.
     */
    private boolean reportDropped = true;

    static final boolean VERBOSE = "1".equals(System.getenv("PRIVADAPT_VERBOSE"));

    /**
     * @param orders   Rényi orders, all > 1, any order (sorted here)
     * @param warnings receives the grid-edge warnings (e.g. a logger, or a no-op in tests)
     */
    public RdpAccountant(NeighbouringRelation relation, double[] orders, Consumer<String> warnings) {
        this.relation = relation;
        this.orders = orders.clone();
        Arrays.sort(this.orders);
        if (this.orders.length == 0 || !(this.orders[0] > 1)) {
            throw new IllegalArgumentException("RDP orders must be non-empty and all > 1");
        }
        this.orderList = Arrays.stream(this.orders).boxed().toList();
        this.warnings = warnings;
    }

    private static double[] defaultOrders() {
        List<Double> o = new ArrayList<>();
        for (int x = 1; x <= 99; x++) {
            o.add(1 + x / 10.0);
        }
        for (int a = 11; a <= 63; a++) {
            o.add((double) a);
        }
        for (int a : new int[] {128, 256, 512, 1024}) {
            o.add((double) a);
        }
        return o.stream().mapToDouble(Double::doubleValue).toArray();
    }

    @Override
    public String name() {
        return "rdp";
    }

    @Override
    public NeighbouringRelation relation() {
        return relation;
    }

    public double[] orders() {
        return orders.clone();
    }

    @Override
    public Optional<String> unsupported(DpEvent event) {
        if (event instanceof PoissonSampledEvent p) {
            if (!(p.event() instanceof GaussianEvent)) {
                return Optional.of("the RDP accountant analyses Poisson subsampling of the Gaussian mechanism only, not of "
                        + p.event().describe() + " (use the PLD accountant)");
            }
            return Optional.empty();
        }
        if (event instanceof PoissonSampledRowsEvent p) {
            if (relation != NeighbouringRelation.REPLACE_ONE) {
                return Optional.of("a per-record release from a Poisson sample reveals the sample size and is analysed only under "
                        + "replace-one neighbours, not " + relation.description());
            }
            return unsupported(p.event());
        }
        if (event instanceof SelfComposedEvent s) {
            return unsupported(s.event());
        }
        if (event instanceof RepeatAndSelectEvent r) {
            return unsupported(r.event());
        }
        if (event instanceof ComposedEvent || event instanceof WorstOfEvent) {
            List<DpEvent> parts = event instanceof ComposedEvent c ? c.events() : ((WorstOfEvent) event).parts();
            for (DpEvent e : parts) {
                Optional<String> u = unsupported(e);
                if (u.isPresent()) {
                    return u;
                }
            }
            return Optional.empty();
        }
        if (event instanceof GaussianEvent || event instanceof LaplaceEvent || event instanceof NoOpEvent
                || event instanceof NonPrivateEvent) {
            return Optional.empty();
        }
        if (event instanceof org.privadapt.privacy.events.ApproximateDpEvent) {
            return Optional.of("the RDP accountant cannot express a bare (eps, delta) guarantee " + event.describe()
                    + " (use the PLD accountant)");
        }
        return Optional.of("unknown event " + event.describe());
    }

    /** The RDP curve of {@code event} on this accountant's orders. */
    public double[] rdp(DpEvent event) {
        unsupported(event).ifPresent(u -> {
            throw new UnsupportedEventException(u);
        });
        return curve(event);
    }

    private double[] curve(DpEvent event) {
        double[] r = new double[orders.length];
        if (event instanceof GaussianEvent g) {
            for (int i = 0; i < orders.length; i++) {
                r[i] = gaussian(g.noiseMultiplier(), orders[i]);
            }
        } else if (event instanceof LaplaceEvent l) {
            for (int i = 0; i < orders.length; i++) {
                r[i] = laplace(l.noiseMultiplier(), orders[i]);
            }
        } else if (event instanceof PoissonSampledEvent p) {
            double s = ((GaussianEvent) p.event()).noiseMultiplier();
            return relation == NeighbouringRelation.REPLACE_ONE ? sampledGaussianReplaceCurve(p.samplingProbability(), s)
                    : sampledGaussianCurve(p.samplingProbability(), s);
        } else if (event instanceof PoissonSampledRowsEvent p) {
            double[] inner = curve(p.event());
            for (int i = 0; i < orders.length; i++) {
                r[i] = sampledRows(p.samplingProbability(), inner[i], orders[i]);
            }
        } else if (event instanceof SelfComposedEvent s) {
            double[] inner = curve(s.event());
            for (int i = 0; i < orders.length; i++) {
                r[i] = s.count() == 0 ? 0.0 : inner[i] * s.count();
            }
        } else if (event instanceof ComposedEvent c) {
            for (DpEvent e : c.events()) {
                double[] inner = curve(e);
                for (int i = 0; i < orders.length; i++) {
                    r[i] += inner[i];
                }
            }
        } else if (event instanceof WorstOfEvent w) {
            Arrays.fill(r, Double.NEGATIVE_INFINITY);
            for (DpEvent e : w.parts()) {
                double[] inner = curve(e);
                for (int i = 0; i < orders.length; i++) {
                    r[i] = Math.max(r[i], inner[i]);
                }
            }
        } else if (event instanceof RepeatAndSelectEvent rs) {
            return repeatAndSelect(orders, curve(rs.event()), rs.mean(), rs.shape());
        } else if (event instanceof NonPrivateEvent) {
            Arrays.fill(r, Double.POSITIVE_INFINITY);
        }
        return r;
    }

    /**
     * Papernot and Steinke 2022, Theorem 2: if one run is (a, r(a))-RDP and (b, r(b))-RDP, running it K ~ TNB(eta,
     * gamma) times and outputting the best run is (a, r(a) + (1 + eta)(1 - 1/b) r(b) + (1 + eta) log(1/gamma) / b +
     * log(E[K]) / (a - 1))-RDP, for every a > 1 and b >= 1. b ranges over the grid; the result is then made
     * non-decreasing in a (a bound at a larger order is one at every smaller order).
     */
    static double[] repeatAndSelect(double[] orders, double[] inner, double mean, double shape) {
        double gamma = TruncatedNegativeBinomial.gammaForMean(shape, mean);
        double logInvGamma = -Math.log(gamma);
        double c = Double.POSITIVE_INFINITY;
        for (int j = 0; j < orders.length; j++) {
            c = Math.min(c, (1 - 1 / orders[j]) * inner[j] + logInvGamma / orders[j]);
        }
        c *= 1 + shape;
        double logMean = Math.log(mean);
        double[] out = new double[orders.length];
        for (int i = 0; i < orders.length; i++) {
            out[i] = inner[i] + logMean / (orders[i] - 1) + c;
        }
        for (int i = orders.length - 2; i >= 0; i--) {
            out[i] = Math.min(out[i], out[i + 1]); // orders are sorted: RDP is non-decreasing in the order
        }
        return out;
    }

    /** Key of a memoised subsampled-Gaussian curve: q, the noise multiplier and the order grid. */
    private record SampledKey(double q, double noiseMultiplier, List<Double> orders) {
    }

    private static final int SAMPLED_CACHE_SIZE = 4096;

    /**
     * Memoised subsampled-Gaussian curves. They are pure functions of (q, s, orders), and the series behind them is
     * the accountant's dearest part; noise calibration bisects over the same multipliers in every run of a
     * benchmark, so repeated runs find them here. Bounded (least recently used evicted); shared across threads.
     */
    private static final Map<SampledKey, double[]> SAMPLED_CACHE = Collections.synchronizedMap(
            new LinkedHashMap<>(256, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<SampledKey, double[]> eldest) {
                    return size() > SAMPLED_CACHE_SIZE;
                }
            });

    private double[] sampledGaussianCurve(double q, double s) {
        SampledKey key = new SampledKey(q, s, orderList);
        double[] cached = SAMPLED_CACHE.get(key);
        if (cached == null) {
            cached = new double[orders.length];
            List<Double> dropped = new ArrayList<>();
            for (int i = 0; i < orders.length; i++) {
                cached[i] = sampledGaussianOrDrop(q, s, orders[i], dropped);
            }
            warnDropped(q, s, dropped);
            SAMPLED_CACHE.put(key, cached);
        }
        return cached.clone();
    }

    /**
     * The subsampled Gaussian's add/remove RDP at one order, or +infinity (a valid, if useless, bound) when its
     * series does not converge at that order; the order is then noted in {@code dropped}. The conversion to
     * (epsilon, delta) takes the minimum over orders, so the result stays a valid upper bound from the others.
     */
    static double sampledGaussianOrDrop(double q, double s, double alpha, List<Double> dropped) {
        try {
            double r = SampledGaussianRdp.rdp(q, s, alpha);
            if (!Double.isNaN(r)) {
                return r;
            }
        } catch (ArithmeticException e) {
            // fall through
        }
        dropped.add(alpha);
        if (alpha != Math.rint(alpha)) {
            // Rényi divergences are non-decreasing in the order (van Erven, Harremoës 2014, Thm 3), so the exact
            // integer-order value at ceil(alpha) is a valid bound at alpha
            try {
                double r = SampledGaussianRdp.rdp(q, s, Math.ceil(alpha));
                if (!Double.isNaN(r)) {
                    return r;
                }
            } catch (ArithmeticException e) {
                // fall through: the order is dropped
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    private void warnDropped(double q, double s, List<Double> dropped) {
        if (!dropped.isEmpty() && reportDropped) {
            warnings.accept(String.format(java.util.Locale.ROOT, "%d fractional RDP order(s) %s of the subsampled Gaussian (q=%.4g, "
                    + "noise multiplier %.4g): their series did not converge, so each takes the exact value at the next integer "
                    + "order (RDP is non-decreasing in the order) or, failing that, is dropped; epsilon remains a valid upper bound",
                    dropped.size(), dropped.size() > 6 ? dropped.subList(0, 6) + "..." : dropped, q, s));
        }
    }

    /**
     * The subsampled Gaussian under <b>replace-one</b> neighbours. Replacing a record is removing it (D -> D'') then
     * adding another (D'' -> D'); Mironov's weak triangle inequality for Rényi divergences (Rényi DP, CSF 2017,
     * Proposition 11) gives
     * {@code D_a(P||R) <= (a - 1/2)/(a - 1) D_{2a}(P||Q) + D_{2a-1}(Q||R)}, and each term on the right is an
     * add/remove divergence of the subsampled Gaussian, which its RDP curve bounds in both directions (Mironov, Talwar,
     * Zhang 2019, Sec. 3). So {@code r_replace(a) <= (a - 1/2)/(a - 1) r(2a) + r(2a - 1)} with r the add/remove curve
     * evaluated at those orders (computed directly, not read off the grid). For q = 1 this is at least the exact
     * {@code 4 a / (2 s^2)} of a Gaussian with sensitivity 2; in the usual DP-SGD regime it is about twice the
     * add/remove epsilon (docs/privacy/rdp-accountant.md).
     */
    private double[] sampledGaussianReplaceCurve(double q, double s) {
        SampledKey key = new SampledKey(-q, s, orderList); // negative q: the replace-one curve of rate q
        double[] cached = SAMPLED_CACHE.get(key);
        if (cached == null) {
            cached = new double[orders.length];
            List<Double> dropped = new ArrayList<>();
            for (int i = 0; i < orders.length; i++) {
                double a = orders[i];
                double r2a = sampledGaussianOrDrop(q, s, 2 * a, dropped);
                double r2a1 = sampledGaussianOrDrop(q, s, 2 * a - 1, dropped);
                cached[i] = (a - 0.5) / (a - 1) * r2a + r2a1;
            }
            warnDropped(q, s, dropped);
            SAMPLED_CACHE.put(key, cached);
        }
        return cached.clone();
    }

    /**
     * RDP at order alpha of a per-record release from a Poisson sample with rate q whose inner mechanism has RDP
     * {@code inner} there: {@code log(1 + q (exp((alpha-1) inner) - 1)) / (alpha - 1)} (joint convexity, see
     * {@link PoissonSampledRowsEvent}); computed in log space so that large inner values do not overflow.
     */
    static double sampledRows(double q, double inner, double alpha) {
        if (q == 0 || inner == 0) {
            return 0.0;
        }
        if (Double.isInfinite(inner)) {
            return Double.POSITIVE_INFINITY;
        }
        double x = (alpha - 1) * inner; // > 0
        // log(1 - q + q e^x) = log(q) + x + log1p((1-q)/q e^-x) when q e^x is large; log1p(q expm1(x)) otherwise
        double v = x > 30 ? Math.log(q) + x + Math.log1p((1 - q) / q * Math.exp(-x)) : Math.log1p(q * Math.expm1(x));
        return Math.min(v / (alpha - 1), inner);
    }

    static double gaussian(double s, double alpha) {
        return s == 0 ? Double.POSITIVE_INFINITY : alpha / (2 * s * s);
    }

    /** RDP of the Laplace mechanism with scale b per unit sensitivity (Mironov 2017, Proposition 6). */
    static double laplace(double b, double alpha) {
        if (b == 0) {
            return Double.POSITIVE_INFINITY;
        }
        double t1 = Math.log(alpha / (2 * alpha - 1)) + (alpha - 1) / b;
        double t2 = Math.log((alpha - 1) / (2 * alpha - 1)) - alpha / b;
        return LogMath.logAdd(t1, t2) / (alpha - 1);
    }

    @Override
    public double epsilon(DpEvent event, double delta) {
        return epsilonAndOrder(event, delta)[0];
    }

    /** {epsilon, the order that achieves it} at {@code delta}. */
    public double[] epsilonAndOrder(DpEvent event, double delta) {
        checkDelta(delta);
        return epsilonFromRdp(rdp(event), delta);
    }

    /** The (epsilon, order) the conversion gives for an RDP curve on this accountant's orders. */
    public double[] epsilonFromRdp(double[] rdp, double delta) {
        checkDelta(delta);
        double best = Double.POSITIVE_INFINITY;
        int bestIdx = -1;
        for (int i = 0; i < orders.length; i++) {
            double a = orders[i];
            double r = rdp[i];
            if (Double.isNaN(r)) {
                continue;
            }
            double eps;
            if (delta * delta + Math.expm1(-r) >= 0) {
                // r(alpha) >= KL, and TV <= sqrt(1 - e^-KL) <= delta (Bretagnolle-Huber): (0, delta)-DP
                eps = 0.0;
            } else {
                eps = r + Math.log1p(-1 / a) - (Math.log(delta) + Math.log(a)) / (a - 1);
            }
            if (eps < best) {
                best = eps;
                bestIdx = i;
            }
        }
        if (bestIdx < 0) {
            return new double[] {Double.POSITIVE_INFINITY, Double.NaN};
        }
        if (Double.isFinite(best) && (bestIdx == 0 || bestIdx == orders.length - 1)) {
            warnings.accept(String.format(java.util.Locale.ROOT,
                    "the optimal RDP order %.4g is at the %s end of the grid [%.4g, %.4g]; a wider grid may give a smaller epsilon",
                    orders[bestIdx], bestIdx == 0 ? "lower" : "upper", orders[0], orders[orders.length - 1]));
        }
        return new double[] {Math.max(0.0, best), orders[bestIdx]};
    }

    @Override
    public double delta(DpEvent event, double epsilon) {
        if (!(epsilon >= 0)) {
            throw new IllegalArgumentException("epsilon must be >= 0, got " + epsilon);
        }
        double[] rdp = rdp(event);
        double logBest = 0.0; // delta <= 1
        for (int i = 0; i < orders.length; i++) {
            double a = orders[i];
            double r = rdp[i];
            if (Double.isNaN(r) || r == Double.POSITIVE_INFINITY) {
                continue;
            }
            // delta = exp((a-1)(r - eps + log(1 - 1/a)) - log a), the inverse of the conversion above
            double logDelta = (a - 1) * (r - epsilon + Math.log1p(-1 / a)) - Math.log(a);
            logBest = Math.min(logBest, logDelta);
        }
        return Math.exp(logBest);
    }

    static void checkDelta(double delta) {
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
        }
    }
}
