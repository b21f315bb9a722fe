#!/usr/bin/env bash
# Paper 001 (DPDA / G-DPDA) experiments, results in docs/results/dpda.md. Usage: docs/results/scripts/dpda.sh OUT_DIR
# PRIVADAPT (default: ./privadapt next to this repository) selects the launcher. Seeded noise (reproducible, NOT private).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
PA="${PRIVADAPT:-$ROOT/privadapt}"
OUT="${1:?usage: dpda.sh OUT_DIR}"
mkdir -p "$OUT"
# Table V, Amazon reviews: 12 pairs, 5000-50-2 sigmoid network, lr 0.05 / 1e-3, clip 4, sigma 8, batch 32, raw counts,
# 20 target epochs fixed in advance; DPDA at (8, 1e-5); G-DPDA at (4, 1e-5) target and (8, 1e-5) source with its own
# defaults (batch 1000, lr1 0.2, 100 target epochs: chosen on books -> books, a source-side validation task)
COMMON=(--runs 5 --jobs 2 --seed 1 --preprocess none --delta 1e-5)
# sigma pinned to 8 (--param sigma=8): since issue 29 the default calibrates sigma to the budget, which changes dpda
# and g-dpda; pinned, these commands reproduce the table as it was measured (nn and dann ignore sigma)
"$PA" bench amazon-reviews --methods nn,dann,dpda --epsilon 8 "${COMMON[@]}" --param epochs=20 --param sigma=8 --out "$OUT/amazon.json" \
  --markdown "$OUT/amazon.md"
"$PA" bench amazon-reviews --methods g-dpda --source-epsilon 8 --target-epsilon 4 "${COMMON[@]}" --param sigma=8 \
  --out "$OUT/amazon-gdpda.json" --markdown "$OUT/amazon-gdpda.md"
# Issue 29: the default (sigma calibrated to the budget), one run per pair, and dpda at epsilon 1, 2, 8 on B->D
NEW=(--jobs 1 --seed 1 --preprocess none --delta 1e-5)
"$PA" bench amazon-reviews --methods dpda --epsilon 8 --runs 1 "${NEW[@]}" --out "$OUT/amazon-dpda-calibrated.json" \
  --markdown "$OUT/amazon-dpda-calibrated.md"
"$PA" bench amazon-reviews --methods g-dpda --source-epsilon 8 --target-epsilon 4 --runs 1 "${NEW[@]}" \
  --out "$OUT/amazon-gdpda-calibrated.json" --markdown "$OUT/amazon-gdpda-calibrated.md"
"$PA" bench amazon-reviews --methods dpda --epsilon 1,2,8 --tasks B:D --runs 3 "${NEW[@]}" \
  --out "$OUT/amazon-dpda-eps.json" --markdown "$OUT/amazon-dpda-eps.md"
# Office (Tables I-II shape) on GoogLeNet features: A->W, D->W, W->D; extractor 1024-256 ReLU, domain head 256-1024-1024-2,
# lr 1e-3 both phases, clip 3, batch 32; DPDA at sigma 6 with as many epochs as epsilon 1, 2, 4 allow
OFFICE=(--jobs 2 --seed 1 --param hidden=256 --param activation=relu
  --param domain-hidden=1024,1024 --param lr1=1e-3 --param lr2=1e-3 --param clip=3 --preprocess l2,scale=32)
"$PA" bench office-caltech10-googlenet --methods nn,dann --tasks A:W,D:W,W:D --runs 3 "${OFFICE[@]}" --param epochs=100 \
  --out "$OUT/office-baselines.json" --markdown "$OUT/office-baselines.md"
"$PA" bench office-caltech10-googlenet --methods dpda --epsilon 1,2,4 --tasks A:W,D:W,W:D --runs 3 "${OFFICE[@]}" --param sigma=6 --param epochs=auto \
  --out "$OUT/office-dpda.json" --markdown "$OUT/office-dpda.md"
# Table III shape on A->W, one run per cell (about 45 min): sigma 4 and 8 at epsilon 1, 2, 4 (delta 1e-5); sigma 6 at
# epsilon 4 with delta 1e-3 (delta 1e-2 >= 1/N_t = 1/295 is refused: it promises nothing)
"$PA" bench office-caltech10-googlenet --methods dpda --epsilon 1,2,4 "${OFFICE[@]}" --tasks A:W --runs 1 --param sigma=4 --param epochs=auto \
  --out "$OUT/office-sigma4.json" --markdown "$OUT/office-sigma4.md"
"$PA" bench office-caltech10-googlenet --methods dpda --epsilon 1,2,4 "${OFFICE[@]}" --tasks A:W --runs 1 --param sigma=8 --param epochs=auto \
  --out "$OUT/office-sigma8.json" --markdown "$OUT/office-sigma8.md"
"$PA" bench office-caltech10-googlenet --methods dpda --epsilon 4 --delta 1e-3 --runs 1 "${OFFICE[@]}" --tasks A:W \
  --param sigma=6 --param epochs=auto --out "$OUT/office-delta1e-3.json" --markdown "$OUT/office-delta1e-3.md"
# MNIST <-> USPS: extractor 256-100 ReLU, same settings
DIGITS=(--runs 3 --jobs 2 --seed 1 --param hidden=100 --param activation=relu --param lr1=1e-2 --param lr2=1e-3 --param clip=3
  --preprocess l2,scale=16)
"$PA" bench mnist-usps --methods nn,dann "${DIGITS[@]}" --param epochs=30 --out "$OUT/digits-baselines.json" \
  --markdown "$OUT/digits-baselines.md"
"$PA" bench mnist-usps --methods dpda --epsilon 1,2,4 "${DIGITS[@]}" --param sigma=6 --param epochs=auto --param max-epochs=100 \
  --out "$OUT/digits-dpda.json" --markdown "$OUT/digits-dpda.md"
