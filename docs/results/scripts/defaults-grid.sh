#!/usr/bin/env bash
# Issue 44 item 4, step 1 of 2: the grid the defaults protocol chooses from. For each of the 13 classification suites,
# each candidate learner (at its own defaults) is benched by dp-source-only at epsilon 2 (delta 1e-5, the bench's
# preprocessing, the source's n, class set and layout declared public as in the issue: DP-SGD needs n, adult's one-hot
# layout needs the schema; ncm and adassp release the same either way), 3 seeded runs (seeded noise: NOT private), with every candidate refinement
# swept on the same seeds (so the refinements of one run refine the same released model). One JSON per suite and
# learner; an interrupted grid resumes from its checkpoints. Step 2 is defaults-protocol.py OUT_DIR.
# Usage: [JOBS=2] [SUITES="..."] [LEARNERS="ncm dp-sgd adassp"] docs/results/scripts/defaults-grid.sh OUT_DIR
# PRIVADAPT (default: ./privadapt next to this repository) selects the launcher.
# Committed (with defaults-protocol.py) before any result of this grid was read; see docs/results/defaults.md.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
PA="${PRIVADAPT:-$ROOT/privadapt}"
OUT="${1:?usage: defaults-grid.sh OUT_DIR}"
mkdir -p "$OUT"
SUITES=(${SUITES:-office-caltech10-googlenet office-caltech10-decaf mtfs3-vggm mnist-usps office-caltech10 amazon-reviews
  reuters-21578-da 20newsgroups-da ecml2006-spam-taskb adult south-german-credit south-german-credit-risk landmine})
LEARNERS=(${LEARNERS:-ncm dp-sgd adassp})
REFINES="${REFINES:-none,centre,prior-em,map-prototypes,lame}"
for suite in "${SUITES[@]}"; do
  for learner in "${LEARNERS[@]}"; do
    f="$OUT/$suite.$learner"
    [ -s "$f.json" ] && continue
    start=$(date +%s)
    if "$PA" bench "$suite" --methods dp-source-only --epsilon 2 --seed 1 --runs 3 --jobs "${JOBS:-2}" --source-public size,classes,schema \
        --param learner="$learner" --sweep refine="$REFINES" --checkpoint "$f.checkpoint.json" \
        --out "$f.json" --markdown "$f.md" >"$f.log" 2>&1; then
      echo "$suite $learner: $(( $(date +%s) - start )) s"
    else
      echo "FAILED: $suite $learner (see $f.log)"
    fi
  done
done
