#!/usr/bin/env bash
# Paper 004 (An et al. 2022): source-private adaptation through a DP model of source features; results in
# docs/results/gmm-uda.md. Usage: docs/results/scripts/gmm-uda.sh OUT_DIR. PRIVADAPT (default: ./privadapt next to this
# repository) selects the launcher. Seeded noise (reproducible, NOT private): drop --seed for a private run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
PA="${PRIVADAPT:-$ROOT/privadapt}"
OUT="${1:?usage: gmm-uda.sh OUT_DIR}"
mkdir -p "$OUT"
# Privacy spend: every DP cell spends its stated epsilon (delta 1e-5) of the source's budget; seeded runs are NOT
# private. Tables I-II layout, CDAN: no adapt / with source / w/o source / w/o source + DP at epsilon 2.5, 5, 7.5, 15
# (delta 1e-5 < 1/n = 6e-4 for the 1,665 source reports), 3 runs
"$PA" bench iu-chest-xray-uda --methods source-only,uda-with-source,uda-gmm,dp-uda-gmm --epsilon 2.5,5,7.5,15 --delta 1e-5 \
  --runs 3 --seed 1 --out "$OUT/cdan.json" > "$OUT/cdan.md"
# Table I, DANN rows (DP at epsilon 5), 3 runs
"$PA" bench iu-chest-xray-uda --methods uda-with-source,uda-gmm,dp-uda-gmm --param adversary=dann --epsilon 5 --delta 1e-5 \
  --runs 3 --seed 1 --out "$OUT/dann.json" > "$OUT/dann.md"
# What DP buys: membership inference against the released mixture and model (30 % of the source held out as
# non-members; full covariances, the paper-size mixture that leaks most), without DP and at epsilon 2.5 and 15
"$PA" bench iu-chest-xray-uda --methods uda-gmm,dp-uda-gmm --param attack-holdout=0.3 --param covariance=full \
  --epsilon 2.5,5,7.5,15 --delta 1e-5 --runs 1 --seed 1 --out "$OUT/mia.json" > "$OUT/mia.md"
# Amazon reviews, one binary label, the same pipeline (pipeline=gmm-uda), two pairs, DP at epsilon 5
"$PA" bench amazon-reviews --tasks B:D,E:K --methods source-only,uda-with-source,uda-gmm,dp-uda-gmm --param pipeline=gmm-uda \
  --epsilon 5 --delta 1e-5 --runs 1 --seed 1 --out "$OUT/amazon.json" > "$OUT/amazon.md"
# Issue 47: the same suite with paper 004's frozen public pretrained encoder (encoder=minilm: all-MiniLM-L6-v2, the
# launcher runs the encoders jar; the reports are encoded once and cached under $PRIVADAPT_CACHE/encoded, default
# ~/.cache/privadapt/encoded). The private release's defaults on it are row-norm 16 and lr 3e-3 (GmmUdaConfig; chosen by minilm-defaults.sh).
# CDAN, DP at each epsilon, 3 runs
for e in 5 2.5 15 7.5; do
  "$PA" bench iu-chest-xray-uda --methods dp-uda-gmm --param encoder=minilm --epsilon "$e" --delta 1e-5 --runs 3 --seed 1 \
    --out "$OUT/minilm-cdan-dp-eps$e.json" > "$OUT/minilm-cdan-dp-eps$e.md"
done
# membership inference (30 % of the source held out, full covariances), without DP and at each epsilon, one run
"$PA" bench iu-chest-xray-uda --methods uda-gmm,dp-uda-gmm --param encoder=minilm --param attack-holdout=0.3 \
  --param covariance=full --epsilon 5,15 --delta 1e-5 --runs 1 --seed 1 --out "$OUT/minilm-mia.json" > "$OUT/minilm-mia.md"
"$PA" bench iu-chest-xray-uda --methods dp-uda-gmm --param encoder=minilm --param attack-holdout=0.3 \
  --param covariance=full --epsilon 2.5,7.5 --delta 1e-5 --runs 1 --seed 1 --out "$OUT/minilm-mia2.json" > "$OUT/minilm-mia2.md"
# the non-private references (no adapt, with source, w/o source), 3 runs
"$PA" bench iu-chest-xray-uda --methods source-only,uda-with-source,uda-gmm --param encoder=minilm --runs 3 --seed 1 \
  --out "$OUT/minilm-cdan-nonprivate.json" > "$OUT/minilm-cdan-nonprivate.md"
# DANN rows (DP at epsilon 5), 3 runs
"$PA" bench iu-chest-xray-uda --methods uda-with-source,uda-gmm,dp-uda-gmm --param encoder=minilm --param adversary=dann \
  --epsilon 5 --delta 1e-5 --runs 3 --seed 1 --out "$OUT/minilm-dann.json" > "$OUT/minilm-dann.md"
# DP source-only on both encoders' features (issue 47 item 3): paper 004's DP-SGD source model at the whole budget,
# no mixture, no adaptation (dp-source-only on multi-label targets), each epsilon, 3 runs; and its membership inference
for enc in bow minilm; do
  "$PA" bench iu-chest-xray-uda --methods dp-source-only --param encoder=$enc --epsilon 2.5,5,7.5,15 --delta 1e-5 --runs 3 \
    --seed 1 --out "$OUT/$enc-dp-source-only.json" > "$OUT/$enc-dp-source-only.md"
  "$PA" bench iu-chest-xray-uda --methods dp-source-only --param encoder=$enc --param attack-holdout=0.3 --epsilon 5 \
    --delta 1e-5 --runs 1 --seed 1 --out "$OUT/$enc-dp-source-only-mia.json" > "$OUT/$enc-dp-source-only-mia.md"
done
# PRIMA and PRISA on both encoders' features (issue 47 item 3): the target's DP moments, the source's alignment and one binary
# model per label (prima's default learner: ncm up to epsilon 4, DP-SGD above), each epsilon, 3 runs
for enc in bow minilm; do
  "$PA" bench iu-chest-xray-uda --methods prima,prisa --param encoder=$enc --epsilon 2.5,5,7.5,15 --delta 1e-5 --runs 3 --seed 1 \
    --out "$OUT/$enc-prima.json" > "$OUT/$enc-prima.md"
done
# the encoder's speed (no cache): reports per second over the findings column
java -cp "$ROOT/encoders/target/privadapt-encoders.jar" org.privadapt.encoders.EncoderSpeed \
  "${PRIVADAPT_DATA:-$ROOT/../shared/data}/iu-chest-xray/indiana_reports.csv" findings 1000 > "$OUT/minilm-speed.txt"
