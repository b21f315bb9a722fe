#!/usr/bin/env bash
# Paper 003 (CnvxAdap / PCnvxAdap / NCnvxAdap and baselines) experiments, results in docs/results/bassily.md.
# Usage: docs/results/scripts/bassily.sh OUT_DIR. PRIVADAPT (default: ./privadapt next to this repository) selects the
# launcher. Seeded noise (reproducible, NOT private). Each bench prints Markdown; --out keeps the JSON (with each run's
# chosen hyperparameters under "diagnostics").
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
PA="${PRIVADAPT:-$ROOT/privadapt}"
OUT="${1:?usage: bassily.sh OUT_DIR}"
mkdir -p "$OUT"
NONPRIV=target-only,source-only,source-target,kmm,dm,cnvxadap
PRIV=target-only,pcnvxadap,pcnvxadap-stats,dp-target-only
# Table 2 (relative MSE), 10 random splits. Irish wind: station MAL from the other 11, target January (158 train,
# 200 validation, 200 test; source = the other months, 6,016 days); delta 1e-3 < 1/n = 6.3e-3
WIND=(irish-wind --tasks other-months:january --runs 10 --seed 1 --param target-train=158 --param target-validation=200 --param target-test=200)
"$PA" bench "${WIND[@]}" --methods $NONPRIV --out "$OUT/wind.json" > "$OUT/wind.md"
"$PA" bench "${WIND[@]}" --methods $PRIV --epsilon 1,10 --delta 1e-3 --relation replace --out "$OUT/wind-private.json" > "$OUT/wind-private.md"
# Gas turbine emissions (NOx), source 2014 (7,158 rows), target 2015 (613 / 1,000 / 2,000), delta 1e-4
GAS=(gas-turbine-emissions --tasks 2014:2015 --runs 10 --seed 1 --param target-train=613 --param target-validation=1000 --param target-test=2000)
"$PA" bench "${GAS[@]}" --methods $NONPRIV --out "$OUT/gas.json" > "$OUT/gas.md"
"$PA" bench "${GAS[@]}" --methods $PRIV --epsilon 1,10 --delta 1e-4 --relation replace --out "$OUT/gas-private.json" > "$OUT/gas-private.md"
# Table 4 (accuracy), 10 splits; private methods at epsilon 10 (delta below 1/(10 n))
CLS=target-only,source-only,source-target,kmm,ncnvxadap,pncnvxadap,dp-target-only
"$PA" bench south-german-credit-risk --tasks short-residence:long-residence --methods $CLS --runs 10 --seed 1 \
  --param target-train=200 --param target-validation=100 --param target-test=262 --epsilon 10 --delta 1e-4 --relation replace \
  --out "$OUT/german-risk.json" > "$OUT/german-risk.md"
"$PA" bench south-german-credit --tasks short-residence:long-residence --methods $CLS --runs 10 --seed 1 \
  --param target-train=200 --param target-validation=100 --param target-test=262 --epsilon 10 --delta 1e-4 --relation replace \
  --out "$OUT/german.json" > "$OUT/german.md"
"$PA" bench speaker-accent --tasks us-uk:other --methods $CLS --runs 10 --seed 1 \
  --param target-train=40 --param target-validation=30 --param target-test=49 --epsilon 10 --delta 1e-3 --relation replace \
  --out "$OUT/accent.json" > "$OUT/accent.md"
"$PA" bench adult --tasks male:female --methods $CLS --runs 5 --seed 1 --target-public schema,classes \
  --param target-train=2000 --param target-validation=1000 --param target-test=1913 --epsilon 10 --delta 1e-5 --relation replace \
  --out "$OUT/adult.json" > "$OUT/adult.md"
# Figures 1-2 shape: gas turbine, test MSE against the target's training size, one PNG per epsilon (3 splits each)
for e in 0.5 1 5 10 15; do
  "$PA" bench gas-turbine-emissions --tasks 2014:2015 --methods target-only,cnvxadap,pcnvxadap,pcnvxadap-stats,dp-target-only \
    --runs 3 --seed 1 --param target-validation=1000 --param target-test=2000 --sweep target-train=100,300,1000,2000,4000 \
    --epsilon "$e" --delta 1e-5 --relation replace --out "$OUT/curve-gas-eps$e.json" --plot "$OUT/curve-gas-eps$e.png" > "$OUT/curve-gas-eps$e.md"
done
# Table 3 shape: Amazon reviews as regression on the -1/+1 labels, 12 pairs, 3 splits: source 500 + 200 target rows,
# target 300 train / 50 validation / 1,000 test, no row normalisation (the regression default). Non-private baselines
# once; DM with 50 mirror steps. Private at epsilon 4 and 10: the private methods run in the public subspace (the
# default rule: d + 1 > n, so k = n / 10 = 30 principal directions of the public source, rows rescaled by a public
# constant) with the source ridge's clipped predictions as offset and as an extra feature (start=offset, the default
# with the subspace);
# pcnvxadap with fixed settings (alpha 0.5, Lambda 4, T 300, smooth step: the simulation on 25 + 25 public validation
# rows chose erratically); dp-target-only with the subspace (same rule, no offset), and once more without it
AMZ=(amazon-reviews --task regression --runs 3 --seed 1 --param source-rows=500 --param source-from-target=200
  --param target-train=300 --param target-validation=50 --param target-test=1000)
"$PA" bench "${AMZ[@]}" --methods target-only,source-only,source-target,kmm,dm --param dm-iterations=50 \
  --out "$OUT/amazon.json" > "$OUT/amazon.md"
"$PA" bench "${AMZ[@]}" --methods target-only,source-only,pcnvxadap,pcnvxadap-stats,dp-target-only --param alpha=0.5 \
  --param radius=4 --param iterations=300 --param step=smooth --epsilon 4,10 --delta 1e-4 --relation replace \
  --out "$OUT/amazon-private.json" > "$OUT/amazon-private.md"
"$PA" bench "${AMZ[@]}" --methods target-only,dp-target-only --param public-subspace=off --param radius=4 \
  --param iterations=300 --epsilon 4,10 --delta 1e-4 --relation replace \
  --out "$OUT/amazon-private-full-dim.json" > "$OUT/amazon-private-full-dim.md"
