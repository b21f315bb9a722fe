#!/usr/bin/env bash
# Issue 19, evidence for the default rule: DP-SGD against the class-statistics learner (ncm), no refinement, at epsilon 0.5, 2 and 8 on every suite, 3 seeded runs (NOT private; drop --seed for a private run).
# Usage: docs/results/scripts/private-learners-epsilon.sh OUT_DIR [suite ...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
PA="${PRIVADAPT:-$ROOT/privadapt}"
OUT="${1:?usage: private-learners-epsilon.sh OUT_DIR [suite ...]}"
shift
SUITES=("$@")
[ ${#SUITES[@]} -gt 0 ] || SUITES=(office-caltech10-googlenet office-caltech10-decaf mnist-usps office-caltech10)
mkdir -p "$OUT"
for suite in "${SUITES[@]}"; do
  for eps in 0.5 8; do
    for learner in dp-sgd ncm; do
      f="$OUT/$suite-eps$eps-$learner"
      [ -s "$f.json" ] && continue
      "$PA" bench "$suite" --methods dp-source-only --epsilon "$eps" --seed 1 --runs 3 --jobs 2 --param learner="$learner" --param refine=none \
        --out "$f.json" --markdown "$f.md" >"$f.log" 2>&1 || echo "FAILED: $f (see $f.log)"
    done
  done
done
