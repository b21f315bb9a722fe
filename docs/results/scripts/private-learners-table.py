#!/usr/bin/env python3
"""Tables from private-learners.sh output: one Markdown table per suite, a row per (learner, refine), the bench's
per-task cells (mean +- sd over runs) and the average. Usage: private-learners-table.py OUT_DIR"""
import glob, os, re, sys

out = sys.argv[1]
rows = {}
for md in sorted(glob.glob(os.path.join(out, "*.md"))):
    name = os.path.basename(md)[:-3]
    m = re.match(r"(.+)-(dp-sgd|dp-gd|ncm|lda|output-perturbation)-(none|centroids|im|self-training)$", name)
    if not m:
        continue
    suite, learner, refine = m.groups()
    tasks, cells = [], []
    for line in open(md):
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) == 2 and parts[0] not in ("task", "---") and not parts[0].startswith("---"):
            tasks.append(parts[0].replace("*", ""))
            cells.append(parts[1].replace("*", ""))
    if tasks:
        rows.setdefault(suite, []).append((learner, refine, tasks, cells))
for suite, rs in rows.items():
    tasks = rs[0][2]
    print(f"\n### {suite}\n")
    print("| learner | refine | " + " | ".join(tasks) + " |")
    print("|---|---|" + "---:|" * len(tasks))
    for learner, refine, t, cells in rs:
        print(f"| {learner} | {refine} | " + " | ".join(cells) + " |")
