#!/usr/bin/env python3
"""Tables from private-learners.sh output: one Markdown table per suite, a row per (learner, refine, centring), the
bench's per-task cells (mean +- sd over runs) and the average. Usage: private-learners-table.py OUT_DIR"""
import glob, os, re, sys

out = sys.argv[1]
rows = {}
for md in sorted(glob.glob(os.path.join(out, "*.md"))):
    name = os.path.basename(md)[:-3]
    m = re.match(r"(.+)-(dp-sgd|dp-gd|ncm|lda|output-perturbation)-(none|centroids|im|im-centroids|self-training)(-centred)?$", name)
    if not m:
        continue
    suite, learner, refine, centred = m.groups()
    tasks, cells = [], []
    for line in open(md):
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) == 2 and parts[0] not in ("task",) and not parts[0].startswith("---"):
            tasks.append(parts[0].replace("*", ""))
            cells.append(parts[1].replace("*", ""))
    if tasks:
        rows.setdefault(suite, []).append((learner, refine + (" (centred)" if centred else ""), tasks, cells))
for suite, rs in rows.items():
    tasks = rs[0][2]
    print(f"\n### {suite}\n")
    print("| learner | refine | " + " | ".join(tasks) + " |")
    print("|---|---|" + "---:|" * len(tasks))
    for learner, refine, t, cells in sorted(rs, key=lambda r: (r[0], r[1])):
        print(f"| {learner} | {refine} | " + " | ".join(cells) + " |")
