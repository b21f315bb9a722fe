#!/usr/bin/env bash
# The full audit table of docs/results/audit.md: every release, both relations where stated, epsilon 2, delta 1e-5,
# secure noise (the numbers change from run to run; add --seed N to reproduce one exactly, NOT PRIVATE).
# Usage: docs/results/scripts/audit.sh [out-dir]   (about 80 min on 2 free cores)
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=${1:-target/audit}
mkdir -p "$out"
./privadapt audit --release ncm --trials 10000000 --json > "$out/ncm.json"
./privadapt audit --release lda --trials 10000000 --json > "$out/lda.json"
./privadapt audit --release adassp --trials 10000000 --json > "$out/adassp.json"
./privadapt audit --release prima-target --trials 2000000 --json > "$out/prima-target.json"
./privadapt audit --release dpot-record --trials 100000 --json > "$out/dpot-record.json"
./privadapt audit --release dpot-attribute --trials 100000 --json > "$out/dpot-attribute.json"
./privadapt audit --release output-perturbation --trials 2000000 --json > "$out/output-perturbation.json"
./privadapt audit --release objective-perturbation --trials 2000000 --json > "$out/objective-perturbation.json"
./privadapt audit --release dp-sgd --trials 1000000 --json > "$out/dp-sgd.json"
./privadapt audit --release dp-gd --trials 100000 --json > "$out/dp-gd.json"
./privadapt audit --release dp-sgd-sparse --trials 1000000 --json > "$out/dp-sgd-sparse.json"
./privadapt audit --release dpda-sparse --trials 1000000 --json > "$out/dpda-sparse.json"
./privadapt audit --release g-dpda-sparse --trials 1000000 --json > "$out/g-dpda-sparse.json"
./privadapt audit --release select --trials 1000000 --json > "$out/select.json"
./privadapt audit --release pcnvxadap --trials 4000000 --json > "$out/pcnvxadap.json"
./privadapt audit --release pncnvxadap --trials 4000000 --json > "$out/pncnvxadap.json"
echo "JSON in $out"
