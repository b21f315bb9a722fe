package org.privadapt.methods.pate;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.models.Classifier;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * The PATE baseline (Papernot et al., ICLR 2017; GNMax aggregator of Papernot et al., ICLR 2018) as paper 002
 * compares with it: the <b>teachers hold the source's data and the student holds the target's</b>.
 * <ol>
 *   <li>The source's rows are split into {@code teachers} disjoint partitions by a keyed hash of each record
 *       ({@link TeacherPartition}): adding or removing one record changes one partition only.</li>
 *   <li>Each teacher is the non-private classifier of the config ({@code lr} or {@code dnn},
 *       {@link Classifiers#train}) trained on its partition; a teacher with an empty partition abstains.</li>
 *   <li>The target sends {@code queries} of its unlabelled rows; each is answered with the GNMax label
 *       {@code argmax_c (n_c + N(0, sigma^2))} over the teachers' vote histogram ({@link GnMax}). The whole set of
 *       queries is planned from public quantities and charged to the source's session before any teacher is trained
 *       or any noise drawn; the noise comes from the source session's (secure) noise source.</li>
 *   <li>The student, the same kind of classifier, is trained by the target on the queried rows with the noisy labels
 *       (non-private: the target's own data, and the target releases nothing) and evaluated on
 *       {@code task.evaluation()}.</li>
 * </ol>
 *
 * <p><b>What is protected.</b> The source only, with (epsilon, delta)-DP under its session's relation, by the
 * <b>data-independent</b> analysis (each query a Gaussian mechanism on the histogram, sensitivity sqrt(2) under
 * add/remove, 2 under replace-one; composed over the queries). The data-dependent (smooth-sensitivity, Confident
 * GNMax) analysis of PATE 2018 is not used, so for the same noise the reported epsilon is an upper bound that can be
 * far larger than the data-dependent one; conversely, for the same epsilon this implementation adds more noise than
 * a data-dependent PATE would be allowed to claim. The <b>target is not protected</b>: its query rows are shown to
 * the source's teachers in the clear (they are only private if they are public data), so its cost is reported as
 * {@link PrivacyCost#NOT_PRIVATE}, as target-only's is: it charges nothing to the target's budget, and it protects
 * nothing either. The number of source
 * classes (the histogram's length) is treated as public, as by every method here.
 *
 * <p><b>Parameters</b> (all public, none read from data): {@code teachers} (default 10); {@code queries}:
 * {@code auto} (the default: the largest number whose per-query noise sigma is at most {@code auto-ratio} times the
 * number of teachers, default 0.5, see {@link GnMax#autoQueries}), {@code all} (every target row) or a number (at most
 * the target's rows). Fewer queries than target rows are a uniformly random subset drawn with the config's seed
 * from the target's size alone. Why these defaults: docs/privacy/pate.md. Every noise-free
 * quantity in the diagnostics (partition sizes, vote agreement) is computed from the source's data and is NOT
 * differentially private: it is for the experimenter, not a release.
 */
public final class PateMethod implements AdaptationMethod {
    /** Default number of teachers. */
    public static final int DEFAULT_TEACHERS = 10;

    /** Default largest GNMax noise, in votes per teacher, the {@code queries=auto} rule accepts. */
    public static final double DEFAULT_AUTO_RATIO = 0.5;

    @Override
    public String name() {
        return "pate";
    }

    @Override
    public String description() {
        return "PATE: teachers on disjoint source partitions, GNMax-labelled target queries, student on the target (source private; target rows shown to the teachers)";
    }

    @Override
    public java.util.Set<String> parameters() {
        return org.privadapt.methods.core.MethodParameters.union(org.privadapt.methods.core.MethodParameters.CLASSIFIER, java.util.Set.of("teachers", "queries", "auto-ratio"),
                org.privadapt.methods.core.TargetRefinements.PARAMETERS);
    }

    @Override
    public boolean isPrivate() {
        return true;
    }

    @Override
    public Set<String> protectedParties() {
        return Set.of("source");
    }

    @Override
    public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy)
            throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
        PrivacySession source = privacy.source();
        org.privadapt.methods.core.TargetRefinements.mode(config); // a misspelt option fails before anything is spent
        Dataset src = task.source();
        ClassLabels y = src.classLabels();
        org.privadapt.methods.core.Disclosures.require(src, source, "the teachers' answers (one of the source's classes each)",
                org.privadapt.methods.core.Disclosures.Fact.CLASSES, org.privadapt.methods.core.Disclosures.Fact.SCHEMA);
        int k = y.numClasses();
        int teachers = config.intParam("teachers", DEFAULT_TEACHERS);
        if (teachers < 1) {
            throw new IllegalArgumentException("teachers must be >= 1, got " + teachers);
        }
        src.requireSameDimension(task.target());
        int nTarget = task.target().size();
        double ratio = config.param("auto-ratio", DEFAULT_AUTO_RATIO);
        String qSpec = config.params().getOrDefault("queries", "auto");
        int queries;
        switch (qSpec) {
            case "auto":
                queries = GnMax.autoQueries(teachers, k, nTarget, ratio, source);
                break;
            case "all":
                queries = nTarget;
                break;
            default:
                queries = Math.min(nTarget, config.intParam("queries", nTarget));
                if (queries < 1) {
                    throw new IllegalArgumentException("queries must be auto, all or a number >= 1, got " + qSpec);
                }
        }

        // 1. plan and charge the whole release first: nothing is trained or drawn if the source refuses
        GnMax.Plan plan = GnMax.plan(teachers, queries, k, source);
        source.charge("pate: " + queries + " GNMax answers from " + teachers + " teachers",
                "GNMax (Gaussian noise on the teachers' vote histogram, argmax), data-independent analysis", plan.event(),
                plan.describe());

        // 2. the target's query rows: data-independent choice (only the target's size and the public seed)
        int[] queryRows = chooseQueries(nTarget, queries, config.seed());
        FeatureMatrix qx = task.target().features().selectRows(queryRows);

        // 3. teachers on disjoint partitions, each voting on every query (-1: abstains)
        int[][] members = TeacherPartition.members(TeacherPartition.assign(src.features(), y, teachers, config.seed()), teachers);
        int[][] votes = teacherVotes(src.features(), y, members, qx, config);

        // 4. GNMax answers (the plan is charged; noise from the source's session)
        int[] labels = new int[queries];
        double agreement = 0;
        int plurality = 0;
        int[] oneQuery = new int[teachers];
        for (int q = 0; q < queries; q++) {
            for (int t = 0; t < teachers; t++) {
                oneQuery[t] = votes[t][q];
            }
            int[] h = GnMax.histogram(oneQuery, k);
            labels[q] = GnMax.noisyArgmax(h, plan, source.noise());
            agreement += (double) h[labels[q]] / teachers;
            int max = Arrays.stream(h).max().orElse(0);
            if (h[labels[q]] == max) {
                plurality++;
            }
        }

        // 5. the target's student, on its own rows with the noisy labels
        Classifier trained = Classifiers.train(config, qx, new ClassLabels(labels, y.names()));
        // the target's own refinement of its student on all its rows: nothing released
        org.privadapt.methods.core.TargetRefinements.Refined refined = org.privadapt.methods.core.TargetRefinements.refine(config,
                trained, task.target().features());
        Classifier student = refined.model();
        int[] pred = new int[task.evaluation().size()];
        double acc = Classifiers.accuracy(student, task.evaluation().features(), task.evaluation(), pred);

        Map<String, Object> diag = new LinkedHashMap<>(plan.describe());
        diag.putAll(refined.diagnostics());
        diag.put("queries_rule", qSpec.equals("auto") ? "auto: sigma <= " + ratio + " x teachers" : qSpec);
        diag.put("partition", "keyed SHA-256 of each record (label, features), key = seed");
        int smallest = Integer.MAX_VALUE;
        int largest = 0;
        int empty = 0;
        for (int[] m : members) {
            smallest = Math.min(smallest, m.length);
            largest = Math.max(largest, m.length);
            empty += m.length == 0 ? 1 : 0;
        }
        diag.put("smallest_partition", smallest);
        diag.put("largest_partition", largest);
        diag.put("empty_teachers", empty);
        diag.put("vote_agreement", agreement / queries);
        diag.put("plurality_agreement", (double) plurality / queries);
        return new AdaptationOutcome(name(), acc, pred, student.classNames(),
                Map.of("source", source.spent(), "target", PrivacyCost.NOT_PRIVATE), diag)
                .withScores(Classifiers.binaryScores(student, task.evaluation().features()));
    }

    /**
     * Every teacher's vote on every query row: {@code votes[t][q]} is the class teacher t (trained on the rows
     * {@code members[t]} of {@code x}) predicts for row q of {@code queries}, or -1 when its partition is empty (it
     * abstains). Teacher t's votes depend on its partition only.
     */
    static int[][] teacherVotes(FeatureMatrix x, ClassLabels y, int[][] members, FeatureMatrix queries, MethodConfig config) {
        int[][] votes = new int[members.length][];
        for (int t = 0; t < members.length; t++) {
            if (members[t].length == 0) {
                votes[t] = new int[queries.rows()];
                Arrays.fill(votes[t], -1);
                continue;
            }
            Classifier teacher = Classifiers.train(config, x.selectRows(members[t]), y.selectRows(members[t]));
            votes[t] = teacher.predict(queries);
        }
        return votes;
    }

    /**
     * The target rows queried: all of them in order when {@code queries == n}, else a uniformly random subset of
     * that size (partial Fisher-Yates with {@code seed}), in increasing order. Reads nothing but n.
     */
    static int[] chooseQueries(int n, int queries, long seed) {
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        if (queries == n) {
            return idx;
        }
        SplittableRandom rng = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
        for (int i = 0; i < queries; i++) {
            int j = i + rng.nextInt(n - i);
            int tmp = idx[i];
            idx[i] = idx[j];
            idx[j] = tmp;
        }
        int[] out = Arrays.copyOf(idx, queries);
        Arrays.sort(out);
        return out;
    }
}
