#!/usr/bin/env bash
# Paper 002's Office-Caltech10 protocol, one bench call per source domain (each source has its own
# delta = 1/(1.2 n_s) and epsilon: 8, or 20 when the source is DSLR or Webcam). Extra arguments are passed to every
# call, e.g.:
#   docs/results/scripts/dpot-office-caltech10.sh --methods otda,pate,dpot-da --param level=attribute --out-dir DIR
#   docs/results/scripts/dpot-office-caltech10.sh --methods target-only,otda,dpot-da --param target-labels=1 ...
#   docs/results/scripts/dpot-office-caltech10.sh --methods otda,dpot-da --classifier dnn ...
# --out-dir DIR (first argument pair only) writes DIR/<source>.json and DIR/<source>.md.
# PRIVADAPT (default: ./privadapt next to this repository) selects the launcher.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
PA="${PRIVADAPT:-$ROOT/privadapt}"
OUT=""
if [[ "${1:-}" == "--out-dir" ]]; then
  OUT="$2"
  shift 2
  mkdir -p "$OUT"
fi
# source: tasks, delta = 1/(1.2 n_s) with n_s = 958, 1123, 157, 295, epsilon
declare -A TASKS=([A]="A:C,A:D,A:W" [C]="C:A,C:D,C:W" [D]="D:A,D:C,D:W" [W]="W:A,W:C,W:D")
declare -A DELTA=([A]="8.700e-04" [C]="7.421e-04" [D]="5.308e-03" [W]="2.825e-03")
declare -A EPS=([A]="8" [C]="8" [D]="20" [W]="20")
for s in A C D W; do
  extra=()
  if [[ -n "$OUT" ]]; then
    extra=(--out "$OUT/$s.json" --markdown "$OUT/$s.md")
  fi
  "$PA" bench office-caltech10 --tasks "${TASKS[$s]}" --relation replace --epsilon "${EPS[$s]}" \
    --delta "${DELTA[$s]}" --seed 1 --runs 3 "${extra[@]}" "$@"
done
