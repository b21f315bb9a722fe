#!/usr/bin/env bash
# The deep-feature suites (issue 15.14): for each of office-caltech10-googlenet, office-caltech10-decaf and
# mnist-usps, (1) the non-private baselines at the default preprocessing of their kind of data, and (2) source-only,
# CORAL, DP source-only and PRIMA at epsilon 2 per party, 5 seeded runs, all four at the private default
# l2,scale=floor(sqrt(d)) (bench applies one preprocessing to every method it compares), with the DP-SGD learner
# they were measured with before issue 19 (the default is now the rule of docs/privacy/private-learners.md).
# Usage: docs/results/scripts/deep-features.sh OUT_DIR [extra bench arguments]
# PRIVADAPT (default: ./privadapt next to this repository) selects the launcher.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
PA="${PRIVADAPT:-$ROOT/privadapt}"
OUT="${1:?usage: deep-features.sh OUT_DIR [extra bench arguments]}"
shift
mkdir -p "$OUT"
for suite in office-caltech10-googlenet office-caltech10-decaf mnist-usps; do
  "$PA" bench "$suite" --methods source-only,coral,sa --runs 1 \
    --out "$OUT/$suite-plain.json" --markdown "$OUT/$suite-plain.md" "$@"
  "$PA" bench "$suite" --methods source-only,coral,dp-source-only,prima --epsilon 2 --seed 1 --runs 5 --jobs 2 --param learner=dp-sgd --param refine=none \
    --out "$OUT/$suite-private.json" --markdown "$OUT/$suite-private.md" "$@"
done
