package org.privadapt.methods.dpot;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.accounting.PrivacyAccountant;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.PoissonSampledRowsEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.mechanisms.GaussianMechanism;
import org.privadapt.privacy.mechanisms.LaplaceMechanism;
import org.privadapt.privacy.mechanisms.Sensitivities;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The source's step of DPOT ({@link Dpot#release(int, int, Dpot.Projector, int[], List, DpotConfig, PrivacySession,
 * String, String)}): checks, draws the JL matrix, calibrates and charges the whole-batch (Gaussian rows and Laplace
 * counts) or minibatch (Poisson batches of rows and scaled counts in one Gaussian) release, draws the order and the
 * noise, and seals the release with its privacy statement. The sensitivities and the public post-processing it uses
 * stay in {@link Dpot}.
 */
final class DpotSourceRelease {
    private DpotSourceRelease() {
    }

    /**
     * Refuses, before anything is drawn or charged, a release that cannot fit the heap: M (k x l), the projected rows
     * (n x l) and the noisy release with its copy hold about {@code k l + 3 n l} doubles (n is public here: DPOT's
     * release has one row per record, replace-one only).
     */
    static void requireRoom(int n, int k, int l, long heapBytes) {
        double bytes = 8.0 * ((double) k * l + 3.0 * n * l);
        if (bytes > heapBytes) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "DPOT's release at projection dimension "
                    + "l = %d needs about %.1f GB (M is %d x %d, the release %d x %d), more than the JVM's heap of %.1f GB: give "
                    + "--param dim=L with a smaller L, or a larger heap (PRIVADAPT_JAVA_OPTS=-Xmx...)", l, bytes / 1e9, k, l, n, l,
                    heapBytes / 1e9));
        }
    }

    static DpotRelease release(int n, int k, Dpot.Projector projector, int[] y, List<String> classNames, DpotConfig cfg,
                               PrivacySession session, String runId, String preprocessing)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        NeighbouringRelation rel = session.relation();
        if (rel != NeighbouringRelation.REPLACE_ONE) {
            throw new IllegalArgumentException("DPOT releases one row per source record, so the number of rows reveals n_s: it is "
                    + "differentially private under replace-one neighbours only (use --relation replace)");
        }
        int q = classNames.size();
        if (n < 1 || y.length != n) {
            throw new IllegalArgumentException("need one label per source row (" + n + " rows, " + y.length + " labels)");
        }
        for (int v : y) {
            if (v < 0 || v >= q) {
                throw new IllegalArgumentException("label code " + v + " outside 0.." + (q - 1));
            }
        }
        int l = cfg.projectionDim(k);
        requireRoom(n, k, l, Runtime.getRuntime().maxMemory());
        NoiseSource noise = session.noise();
        JlProjection proj = JlProjection.draw(k, l, noise); // data-independent, published
        double dRows = Dpot.rowSensitivity(cfg, proj, q);
        double eps = session.target().epsilon();
        double delta = session.target().delta();
        List<DpotRelease.Batch> batches = new ArrayList<>();
        ObjectNode extra = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        // n x l, the rows clipped at the record level; rows are selected and ordered below
        DenseMatrix projected = projector.project(proj.matrix(), cfg.level() == DpotConfig.Level.RECORD ? cfg.clip() : Double.NaN);
        if (projected.rows() != n || projected.cols() != l) {
            throw new IllegalStateException("the projection gave " + projected.rows() + " x " + projected.cols() + ", expected "
                    + n + " x " + l);
        }
        double rowNoise;
        if (!cfg.minibatch()) {
            LaplaceMechanism lap = new LaplaceMechanism(cfg.labelShare() * eps, Sensitivities.histogramL1(rel), rel);
            double s;
            if (Double.isNaN(cfg.noiseRatio())) {
                // calibrated with the RDP accountant (fast); the spend is then certified by the tightest accountant
                java.util.function.DoubleFunction<DpEvent> family = v -> ComposedEvent.of(new GaussianEvent(v), lap.event());
                s = NoiseCalibration.smallest(family, new RdpAccountant(rel, RdpAccountant.DEFAULT_ORDERS, w -> { }),
                        eps * (1 - 1e-9), delta, "DPOT whole-batch release");
            } else {
                s = cfg.noiseRatio();
            }
            GaussianMechanism gm = GaussianMechanism.forNoiseMultiplier(s, dRows, rel, (long) n * l);
            // one charge for both releases, so that a refusal leaves nothing recorded
            session.charge("dpot source: label histogram and JL release", "Laplace (label counts, L1 sensitivity " + lap.sensitivity()
                    + ") + Gaussian (rows X M ordered by label, " + n + " x " + l + ")", ComposedEvent.of(lap.event(), gm.event()),
                    Map.of("label_epsilon", lap.epsilon(), "classes", q, "noise_multiplier", s, "sensitivity", dRows,
                            "level", cfg.level().name().toLowerCase(java.util.Locale.ROOT)));
            int[] order = DpotOrders.labelOrder(DpotOrders.allRows(n), y, q, noise.bits());
            DenseMatrix sel = projected.selectRows(order);
            double[] noisy = gm.releaseVector(sel.data(), noise);
            int[] counts = new int[q];
            for (int v : y) {
                counts[v]++;
            }
            double[] noisyCounts = lap.releaseVector(toDouble(counts), noise);
            batches.add(new DpotRelease.Batch(new DenseMatrix(n, l, noisy), Dpot.validCounts(noisyCounts, n)));
            rowNoise = gm.sigma();
            extra.put("label_laplace_scale", lap.sensitivity() / lap.epsilon());
            extra.put("noise_multiplier", s);
        } else {
            double qRate = Math.min(1.0, (double) cfg.batch() / n);
            RdpAccountant rdp = new RdpAccountant(rel, RdpAccountant.DEFAULT_ORDERS, w -> { });
            double dJoint = Math.sqrt(2) * dRows;
            long steps;
            double s;
            if (!Double.isNaN(cfg.noiseRatio())) {
                s = cfg.noiseRatio() / Math.sqrt(2); // sigma = ratio * Delta_rows, joint sensitivity sqrt2 Delta_rows
                steps = cfg.batches() > 0 ? cfg.batches() : maxSteps(s, qRate, rdp, eps, delta);
                if (steps < 1) {
                    throw new BudgetExceededException("a noise ratio of " + cfg.noiseRatio() + " does not allow even one batch within epsilon "
                            + eps + " at delta " + delta);
                }
            } else {
                steps = cfg.batches() > 0 ? cfg.batches() : (long) Math.ceil((double) n / cfg.batch());
                final long st = steps;
                s = NoiseCalibration.smallest(v -> minibatchEvent(v, qRate, st), rdp, eps * (1 - 1e-9), delta,
                        steps + " DPOT minibatch releases");
            }
            // per batch: m x l rows plus q counts; the largest batch is n rows
            GaussianMechanism gm = GaussianMechanism.forNoiseMultiplier(s, dJoint, rel, (long) n * l + q);
            DpEvent event = new SelfComposedEvent(new PoissonSampledRowsEvent(qRate, gm.event()), steps);
            session.charge("dpot source: JL minibatch releases", "Gaussian (Poisson batches of rows X_b M and label counts, "
                    + steps + " batches, q=" + qRate + ")", event,
                    Map.of("noise_multiplier", s, "row_sensitivity", dRows, "batches", steps, "sampling_rate", qRate));
            double tau = dRows / Math.sqrt(2);
            for (long t = 0; t < steps; t++) {
                int[] sample = DpotOrders.poissonSample(n, qRate, noise);
                int[] order = DpotOrders.labelOrder(sample, y, q, noise.bits());
                DenseMatrix sel = projected.selectRows(order);
                int[] counts = new int[q];
                for (int i : order) {
                    counts[y[i]]++;
                }
                double[] joint = new double[order.length * l + q];
                System.arraycopy(sel.data(), 0, joint, 0, order.length * l);
                for (int c = 0; c < q; c++) {
                    joint[order.length * l + c] = tau * counts[c];
                }
                double[] noisy = gm.releaseVector(joint, noise);
                double[] noisyCounts = new double[q];
                for (int c = 0; c < q; c++) {
                    noisyCounts[c] = noisy[order.length * l + c] / tau;
                }
                batches.add(new DpotRelease.Batch(new DenseMatrix(order.length, l, Arrays.copyOf(noisy, order.length * l)),
                        Dpot.validCounts(noisyCounts, order.length)));
            }
            rowNoise = gm.sigma();
            extra.put("count_noise_std", gm.sigma() / tau);
            extra.put("noise_multiplier", s);
            extra.put("sampling_rate", qRate);
            extra.put("batches", steps);
        }
        ObjectNode privacy = org.privadapt.methods.prima.Prima.statement(session, "source", delta);
        privacy.put("level", cfg.level().name().toLowerCase(java.util.Locale.ROOT));
        privacy.put("row_sensitivity", dRows);
        privacy.put("row_noise_std", rowNoise);
        privacy.put("projection_max_row_norm", proj.maxRowNorm());
        privacy.put("projection_spectral_norm", proj.spectralNorm());
        privacy.put("guarantee", Dpot.guarantee(cfg));
        double ratio = Dpot.classMeanNoiseToSignal(cfg, preprocessing, rowNoise, l, proj.spectralNorm(), n, q);
        if (Double.isFinite(ratio)) {
            privacy.put("class_mean_noise_to_signal", ratio);
        }
        privacy.setAll(extra);
        String created = java.time.Instant.now().toString();
        DpotRelease r = new DpotRelease(runId, cfg, preprocessing, List.copyOf(classNames), proj.matrix(), rowNoise, batches, privacy,
                created, null);
        String checksum = r.toArtifact().seal();
        return new DpotRelease(runId, cfg, preprocessing, List.copyOf(classNames), proj.matrix(), rowNoise, batches, privacy, created,
                checksum);
    }

    static DpEvent minibatchEvent(double s, double q, long steps) {
        return new SelfComposedEvent(new PoissonSampledRowsEvent(q, new GaussianEvent(s)), steps);
    }

    /** The largest number of batches whose composition stays within (eps, delta) at noise multiplier s (0 if none). */
    static long maxSteps(double s, double q, PrivacyAccountant acc, double eps, double delta) {
        if (acc.epsilon(minibatchEvent(s, q, 1), delta) > eps) {
            return 0;
        }
        long lo = 1, hi = 2;
        while (acc.epsilon(minibatchEvent(s, q, hi), delta) <= eps) {
            lo = hi;
            hi *= 2;
            if (hi > 1L << 30) {
                return lo;
            }
        }
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            if (acc.epsilon(minibatchEvent(s, q, mid), delta) <= eps) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static double[] toDouble(int[] a) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i];
        }
        return d;
    }
}
