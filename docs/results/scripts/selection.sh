#!/usr/bin/env bash
# Issue 29: private selection of the learner (learner=select) against the two fixed learners it chooses between, at
# epsilon 2, delta 1e-5, 3 seeded runs (NOT private), with and without the target's centroid refinement.
# Usage: docs/results/scripts/selection.sh OUT_DIR   (about 40 minutes on 2 cores; Amazon one run per learner)
set -euo pipefail
out=${1:?usage: selection.sh OUT_DIR}
mkdir -p "$out"
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
jar=cli/target/privadapt.jar
[[ -f $jar ]] || ./mvnw -B -ntp -q -DskipTests package
for suite in office-caltech10-googlenet office-caltech10-decaf mnist-usps office-caltech10 south-german-credit south-german-credit-risk; do
  for learner in select ncm dp-sgd; do
    for refine in none centroids; do
      java -jar $jar bench $suite --methods dp-source-only --epsilon 2 --seed 1 --runs 3 --jobs 2 \
        --param learner=$learner --param refine=$refine > "$out/$suite.$learner.$refine.txt" 2>&1
    done
  done
done
for learner in select ncm dp-sgd; do
  java -jar $jar bench adult --methods dp-source-only --epsilon 2 --seed 1 --runs 3 --jobs 1 --param learner=$learner \
    --param refine=none --source-public size,classes,schema --target-public size,classes,schema > "$out/adult.$learner.none.txt" 2>&1
  java -jar $jar bench amazon-reviews --methods dp-source-only --epsilon 2 --seed 1 --runs 1 --jobs 1 --param learner=$learner \
    --param refine=none > "$out/amazon-reviews.$learner.none.txt" 2>&1
done
grep -H average "$out"/*.txt
