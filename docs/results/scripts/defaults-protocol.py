#!/usr/bin/env python3
"""Issue 44 item 4, step 2 of 2: the defaults chosen by leave-one-suite-out, minimising the worst regret.

Usage: defaults-protocol.py OUT_DIR [--json FILE]   (OUT_DIR as written by defaults-grid.sh)

Committed, with defaults-grid.sh, before any result of the grid was read. The protocol, fixed here:

* Configurations: every (learner, refinement) of the grid, each at its own defaults. A configuration missing on any
  task of any suite (failed or refused) is excluded from every rule: a default must run everywhere. Its cells are
  still reported.
* Score of a configuration on a task: the mean over the runs of target accuracy; on landmine (6 % positive, where
  predicting "clutter" everywhere scores 94 %) the balanced accuracy instead. A suite's score: the mean over its tasks.
  Its run-to-run sd: the sample sd over the runs of the per-run suite score (the mean over tasks of run r).
* Rules: functions of public quantities of a task only (the source's n, d, K as the bench declares and reads them;
  epsilon is 2 throughout and so not used). The family:
    R0 "always c", for each configuration c;
    R1 "c1 if f(task) <= t else c2", for f in {log10(n/K/d), log10(n/K), log10(d), K}, t a midpoint between two
       consecutive distinct values of f over the training suites' tasks, c1 != c2.
  A rule is applied per task, so a suite's score under a rule is the mean over its tasks of the chosen cells.
* Regret of a rule on a suite: the best fixed configuration's score on that suite in hindsight (max over R0) minus
  the rule's score there (it can be negative for an R1 rule).
* Choice on a set of suites: the rule with the smallest worst regret over them; ties (within 1e-9) broken by the
  smaller mean regret, then R0 before R1, then the order of the grid (learners ncm, dp-sgd, adassp; refinements in
  the swept order).
* Leave-one-suite-out: for each suite, the rule chosen on the other 12, measured on the left-out suite. Reported per
  suite: the rule, its score, the best fixed configuration and its score, the regret, the sd; and whether the goal's
  tests hold (within max(1 point, one sd) of the best fixed configuration; not more than one sd below the default
  rule's learner with refine=none). The final defaults are the rule chosen on all 13 suites. When n is not public
  the default cannot be a learner that reveals n (DP-SGD's sampling rate): that default is the rule the same choice
  makes on all 13 suites among the configurations whose learner does not reveal n.
"""
import glob, itertools, json, math, os, statistics, sys

BALANCED = {"landmine"}
REVEALS_N = {"dp-sgd", "dp-gd"}
FEATURES = ["log10(n/K/d)", "log10(n/K)", "log10(d)", "K"]


def load(out):
    cells = {}   # (suite, task) -> {config: (score, [per-run scores])}
    public = {}  # (suite, task) -> {feature: value}
    order = []
    for path in sorted(glob.glob(os.path.join(out, "*.json"))):
        base = os.path.basename(path)
        if base.endswith(".checkpoint.json") or "." not in base[:-5]:
            continue
        suite, learner = base[:-5].rsplit(".", 1)
        doc = json.load(open(path))
        rows = {}
        for ds in doc.get("datasets", []):  # "suite/domain" or "suite/domain:split"; a source trains on a non-eval split
            if ds["role"] != "target-eval":
                rows.setdefault(ds["domain"].split("/", 1)[-1].split(":")[0], []).append(ds)
        for r in doc["results"]:
            refine = (r.get("sweep") or {}).get("refine", "none")
            config = learner + " + " + refine
            if config not in order:
                order.append(config)
            runs = r.get("balanced_accuracies") if suite in BALANCED else r.get("accuracies")
            if not runs:
                continue
            cells.setdefault((suite, r["task"]), {})[config] = (100 * statistics.fmean(runs), [100 * a for a in runs])
            src = [d for d in rows.get(r["source"], []) if d["role"] == "source"] or rows.get(r["source"], [])
            if src:
                n, d = src[0]["rows"], src[0]["cols"]
                k = int(str(src[0]["labels"]).split()[0])
                public[(suite, r["task"])] = {"log10(n/K/d)": math.log10(n / k / d), "log10(n/K)": math.log10(n / k),
                                              "log10(d)": math.log10(d), "K": k}
    return cells, public, order


def rank(config, order):
    learners = ["ncm", "dp-sgd", "adassp"]
    learner, refine = config.split(" + ")
    return (learners.index(learner) if learner in learners else 9, order.index(config))


def main():
    out = sys.argv[1]
    cells, public, order = load(out)
    suites = sorted({s for s, _ in cells})
    tasks = {s: sorted(t for s2, t in cells if s2 == s) for s in suites}
    configs = sorted({c for v in cells.values() for c in v}, key=lambda c: rank(c, order))
    complete = [c for c in configs if all(c in cells[(s, t)] for s in suites for t in tasks[s])]
    missing = [c for c in configs if c not in complete]

    def fixed_score(s, c):
        return statistics.fmean(cells[(s, t)][c][0] for t in tasks[s])

    def fixed_sd(s, c):
        runs = [cells[(s, t)][c][1] for t in tasks[s]]
        per_run = [statistics.fmean(r[i] for r in runs) for i in range(min(len(r) for r in runs))]
        return statistics.stdev(per_run) if len(per_run) > 1 else 0.0

    best = {s: max(complete, key=lambda c: (fixed_score(s, c), -rank(c, order)[1])) for s in suites}

    def rule_config(rule, s, t):
        if rule[0] == "R0":
            return rule[1]
        _, f, thr, c1, c2 = rule
        return c1 if public[(s, t)][f] <= thr else c2

    def rule_score(rule, s):
        return statistics.fmean(cells[(s, t)][rule_config(rule, s, t)][0] for t in tasks[s])

    def rule_sd(rule, s):
        runs = [cells[(s, t)][rule_config(rule, s, t)][1] for t in tasks[s]]
        per_run = [statistics.fmean(r[i] for r in runs) for i in range(min(len(r) for r in runs))]
        return statistics.stdev(per_run) if len(per_run) > 1 else 0.0

    def rules(train, pool):
        yield from (("R0", c) for c in pool)
        for f in FEATURES:
            vals = sorted({public[(s, t)][f] for s in train for t in tasks[s] if (s, t) in public})
            for a, b in zip(vals, vals[1:]):
                for c1, c2 in itertools.permutations(pool, 2):
                    yield ("R1", f, (a + b) / 2, c1, c2)

    def choose(train, pool=complete):
        bestrule, bestkey = None, None
        for i, rule in enumerate(rules(train, pool)):
            reg = [fixed_score(s, best[s]) - rule_score(rule, s) for s in train]
            key = (round(max(reg), 9), round(statistics.fmean(reg), 9), 0 if rule[0] == "R0" else 1, i)
            if bestkey is None or key < bestkey:
                bestrule, bestkey = rule, key
        return bestrule, bestkey

    def describe(rule):
        if rule[0] == "R0":
            return "always " + rule[1]
        _, f, thr, c1, c2 = rule
        return f"{c1} if {f} <= {thr:.3g} else {c2}"

    report = {"configurations": complete, "excluded": missing, "suites": []}
    print(f"configurations: {len(complete)} complete" + (f"; excluded (missing cells): {', '.join(missing)}" if missing else ""))
    print("\n## Leave-one-suite-out\n")
    print("| left-out suite | rule chosen on the other 12 | score | best fixed in hindsight | best | regret | sd | within max(1, sd) | vs refine=none |")
    print("|---|---|---:|---|---:|---:|---:|---|---|")
    worst = -math.inf
    for s in suites:
        train = [x for x in suites if x != s]
        rule, _ = choose(train)
        sc, b, sd = rule_score(rule, s), fixed_score(s, best[s]), rule_sd(rule, s)
        reg = b - sc
        worst = max(worst, reg)
        none_cfgs = {t: rule_config(rule, s, t).split(" + ")[0] + " + none" for t in tasks[s]}
        none_score = (statistics.fmean(cells[(s, t)][c][0] for t, c in none_cfgs.items())
                      if all(c in complete for c in none_cfgs.values()) else float("nan"))
        ok_best = reg <= max(1.0, sd)
        ok_none = sc >= none_score - sd if not math.isnan(none_score) else None
        print(f"| {s} | {describe(rule)} | {sc:.1f} | {best[s]} | {b:.1f} | {reg:.1f} | {sd:.1f} | {'yes' if ok_best else 'NO'} | "
              + ("n/a" if ok_none is None else f"{'yes' if ok_none else 'NO'} ({none_score:.1f})") + " |")
        report["suites"].append({"suite": s, "rule": describe(rule), "score": sc, "best": best[s], "best_score": b,
                                 "regret": reg, "sd": sd, "within_best": ok_best, "not_below_none": ok_none,
                                 "none_score": none_score})
    print(f"\nworst leave-one-suite-out regret: {worst:.2f} points (goal: at most 3)")
    final, key = choose(suites)
    print(f"\n## Final defaults (chosen on all {len(suites)} suites)\n\n{describe(final)}: worst in-sample regret "
          f"{key[0]:.2f}, mean {key[1]:.2f}")
    n_free = [c for c in complete if c.split(" + ")[0] not in REVEALS_N]
    if n_free:
        final_np, key_np = choose(suites, n_free)
        print(f"\nwhen n is not public (no learner that reveals n: {', '.join(sorted(REVEALS_N))}): {describe(final_np)}: "
              f"worst in-sample regret {key_np[0]:.2f}, mean {key_np[1]:.2f}")
        report["final_n_private"] = describe(final_np)
    report.update({"worst_regret": worst, "final": describe(final), "final_worst_in_sample": key[0],
                   "final_mean_in_sample": key[1]})
    print("\n## Every configuration per suite (score; sd)\n")
    print("| suite | " + " | ".join(configs) + " |")
    print("|---|" + "---:|" * len(configs))
    for s in suites:
        row = [f"{fixed_score(s, c):.1f}; {fixed_sd(s, c):.1f}" if all(c in cells[(s, t)] for t in tasks[s]) else "-"
               for c in configs]
        print(f"| {s} | " + " | ".join(row) + " |")
    if "--json" in sys.argv:
        json.dump(report, open(sys.argv[sys.argv.index("--json") + 1], "w"), indent=2)


if __name__ == "__main__":
    main()
