#!/usr/bin/env bash
# Issue 44: the default and the configurations of the defaults grid on a suite that is not in ../shared/data and was not
# used by the protocol: COIL-20 (20 objects, 32 x 32 grey pixels = 1024 features, 720 images per domain; JDA's two
# domains, Long et al. ICCV 2013), the "object images, 20 classes, 1024-d" pair of issue 44's table.
#
# Usage: docs/results/scripts/unseen-coil.sh DIR [OUT]   DIR holds COIL_1.mat (X_src/Y_src = COIL1, X_tar/Y_tar = COIL2)
#        and COIL_2.mat (the reverse), as published with JDA's code (e.g. the public GitHub repository AngryCarrot/JDA,
#        data/); they are not part of privadapt and are never committed. About 2 minutes on 2 cores.
# Each cell: privadapt run --method dp-source-only --epsilon 2 --seed 1 --runs 3 --source-public size,classes,schema
# (seeded noise: NOT private; each cell is 3 runs at epsilon 2 for the source, the refinements cost nothing), with the
# default preprocessing for private methods. Prints a markdown table of mean +- run-to-run sd per direction.
set -euo pipefail
DIR="${1:?usage: unseen-coil.sh DIR [OUT]}"
OUT="${2:-$(mktemp -d)}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
PA="${PRIVADAPT:-$ROOT/privadapt}"
mkdir -p "$OUT"
configs=("default:")
for l in ncm dp-sgd adassp; do
  for r in none centre prior-em map-prototypes lame; do
    configs+=("$l+$r:--param learner=$l --param refine=$r")
  done
done
for f in COIL_1 COIL_2; do
  for c in "${configs[@]}"; do
    name="${c%%:*}"
    # shellcheck disable=SC2086
    "$PA" run --method dp-source-only --source "$DIR/$f.mat" --target "$DIR/$f.mat" --source-features-var X_src \
      --source-labels-var Y_src --target-features-var X_tar --target-labels-var Y_tar --epsilon 2 --seed 1 --runs 3 \
      --source-public size,classes,schema ${c#*:} --json > "$OUT/$f-$name.json" 2> "$OUT/$f-$name.err"
  done
done
python3 - "$OUT" "${configs[@]}" <<'PY'
import json, sys
out, configs = sys.argv[1], [c.split(":", 1)[0] for c in sys.argv[2:]]
print("| configuration | COIL1 -> COIL2 | COIL2 -> COIL1 | mean |")
print("|---|---:|---:|---:|")
for c in configs:
    cells = []
    for f in ("COIL_1", "COIL_2"):
        r = json.load(open(f"{out}/{f}-{c}.json"))
        r = r["results"][0] if "results" in r else r
        cells.append((100 * r["accuracy_mean"], 100 * r["accuracy_std"]))
    print(f"| {c} | " + " | ".join(f"{m:.1f} ± {s:.1f}" for m, s in cells) + f" | {sum(m for m, _ in cells) / 2:.1f} |")
PY
