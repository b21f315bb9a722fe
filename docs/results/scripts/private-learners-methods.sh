#!/usr/bin/env bash
# Issue 19: the private methods' columns rerun with the default rule (learner=auto) and with the target's refinement,
# epsilon 2 per party, 3 seeded runs (NOT private; drop --seed for a private run). The old DP-SGD columns are those of
# docs/results/deep-features.md and prima.md (their scripts; add --param learner=dp-sgd to rerun them now).
# Usage: docs/results/scripts/private-learners-methods.sh OUT_DIR [suite ...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
PA="${PRIVADAPT:-$ROOT/privadapt}"
OUT="${1:?usage: private-learners-methods.sh OUT_DIR [suite ...]}"
shift
SUITES=("$@")
[ ${#SUITES[@]} -gt 0 ] || SUITES=(office-caltech10-googlenet office-caltech10-decaf mnist-usps office-caltech10)
mkdir -p "$OUT"
run() { # tag suite extra...
  local tag="$1" suite="$2"
  shift 2
  local f="$OUT/$suite-$tag"
  [ -s "$f.json" ] && return 0
  "$PA" bench "$suite" --epsilon 2 --seed 1 --runs 3 --jobs 2 --out "$f.json" --markdown "$f.md" "$@" >"$f.log" 2>&1 \
    || echo "FAILED: $f (see $f.log)"
}
for suite in "${SUITES[@]}"; do
  run auto "$suite" --methods prima,prisa
  run auto-centroids "$suite" --methods prima,prisa --param refine=centroids
done
# Amazon reviews, the four tasks of docs/results/prima.md, one run (d = 5000; PRISA left out for time)
AMZ=(--tasks kitchen:dvd,dvd:books,books:electronics,electronics:kitchen --runs 1)
for tag in auto auto-centroids auto-im-centroids; do
  f="$OUT/amazon-reviews-$tag"
  [ -s "$f.json" ] && continue
  case "$tag" in
    auto) extra=(--methods dp-source-only,prima --param refine=none) ;;
    auto-centroids) extra=(--methods dp-source-only,prima --param refine=centroids) ;;
    auto-im-centroids) extra=(--methods dp-source-only --param refine=im-centroids) ;;
  esac
  "$PA" bench amazon-reviews --epsilon 2 --seed 1 "${AMZ[@]}" --jobs 2 --out "$f.json" --markdown "$f.md" "${extra[@]}" \
    >"$f.log" 2>&1 || echo "FAILED: $f (see $f.log)"
done
