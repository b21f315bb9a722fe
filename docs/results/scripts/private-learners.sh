#!/usr/bin/env bash
# Issue 19: every private learner, with and without the target's refinement, on every suite, epsilon 2 for the
# source, 3 seeded runs (seeded noise: NOT private; drop --seed for a private run). Then, for ncm and dp-sgd, the
# refinements after target-mean centring (refine-centre=true).
# Usage: [LEARNERS="ncm dp-sgd"] [REFINES="none centroids"] docs/results/scripts/private-learners.sh OUT_DIR [suite ...]
# PRIVADAPT (default: ./privadapt next to this repository) selects the launcher.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
PA="${PRIVADAPT:-$ROOT/privadapt}"
OUT="${1:?usage: private-learners.sh OUT_DIR [suite ...]}"
shift
SUITES=("$@")
[ ${#SUITES[@]} -gt 0 ] || SUITES=(office-caltech10-googlenet office-caltech10-decaf mnist-usps office-caltech10)
mkdir -p "$OUT"
one() { # suite learner refine centre
  local f="$OUT/$1-$2-$3"
  [ "$4" = true ] && f="$f-centred"
  [ -s "$f.json" ] && return 0
  "$PA" bench "$1" --methods dp-source-only --epsilon 2 --seed 1 --runs 3 --jobs 2 \
    --param learner="$2" --param refine="$3" --param refine-centre="$4" --out "$f.json" --markdown "$f.md" >"$f.log" 2>&1 \
    || echo "FAILED: $f (see $f.log)"
}
LEARNERS=(${LEARNERS:-dp-sgd dp-gd ncm lda output-perturbation})
REFINES=(${REFINES:-none centroids im im-centroids})
for suite in "${SUITES[@]}"; do
  for learner in "${LEARNERS[@]}"; do
    for refine in "${REFINES[@]}"; do
      one "$suite" "$learner" "$refine" false
    done
  done
  for learner in ncm dp-sgd; do
    for refine in none centroids im im-centroids; do
      one "$suite" "$learner" "$refine" true
    done
  done
done
