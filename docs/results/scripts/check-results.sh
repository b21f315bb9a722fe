#!/usr/bin/env bash
# Issue 30: do the results pages' commands still reproduce their tables on this commit?
#
# Runs a sample of the seeded (--seed 1) commands of docs/results/*.md, one at a time, with --json, and compares the
# accuracies they report (mean, and sd where the table prints one) with the numbers printed in the table, within the
# table's rounding (half a unit of the last printed decimal: +-0.05 for one decimal). Each expected number sits below
# its command with the page and line it comes from; the script also checks that the line still shows it, so an edited
# table cannot silently leave the check behind.
#
# Usage: docs/results/scripts/check-results.sh [CHECK ...]   (checks: bassily deep-features prima dpot dpda selection defaults
#        defaults-adassp gmm-uda-minilm gmm-uda-source-only gmm-uda-prima;
#        default all; about 6 minutes on 2 idle cores, 10-15 with other work beside it)
# Prints one line per table cell (PASS/FAIL, page:line, expected, got) and exits 1 if any cell fails. Skips (exit 0)
# when the benchmark data are absent ($PRIVADAPT_DATA, else ../shared/data from the repository root).
# Environment: PRIVADAPT (default: ./privadapt next to this repository) selects the launcher; CHECK_RESULTS_OUT keeps
# the JSON of every bench in that directory (default: a temporary directory, removed at the end).
#
# Numbers are bit for bit for one OpenBLAS thread per bench (docs/results/dpot.md): the tables were made with
# --jobs 2, for which the launcher sets one BLAS thread per job; here --jobs 1 with OPENBLAS_NUM_THREADS=1, which gives
# the same numbers (and avoids oversubscribing a shared machine).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
PA="${PRIVADAPT:-$ROOT/privadapt}"
DOCS="$ROOT/docs/results"
DATA="${PRIVADAPT_DATA:-$ROOT/../shared/data}"

if [[ ! -d "$DATA" ]]; then
  echo "check-results: SKIP: no benchmark data at $DATA (set PRIVADAPT_DATA or provide ../shared/data); nothing checked"
  exit 0
fi
command -v python3 >/dev/null || { echo "check-results: python3 is needed to read the JSON" >&2; exit 2; }
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"

if [[ -n "${CHECK_RESULTS_OUT:-}" ]]; then
  OUT="$CHECK_RESULTS_OUT"
  mkdir -p "$OUT"
else
  OUT="$(mktemp -d)"
  trap 'rm -rf "$OUT"' EXIT
fi
WANTED=("$@")
FAILED=0

# check NAME DOC -- BENCH ARGS...   (expected cells on standard input, one per line: LINE TASK METHOD MEAN [SD])
#   TASK as bench's JSON names it (A->D) or 'average' (mean over the tasks of the cell means, as the tables print it);
#   METHOD may carry a swept value: dpda[epsilon=1.0]. Accuracies in %.
check() {
  local name="$1" doc="$2"
  shift 3
  local expected
  expected="$(cat)"
  if [[ ${#WANTED[@]} -gt 0 && " ${WANTED[*]} " != *" $name "* ]]; then
    return 0
  fi
  local json="$OUT/$name.json" start=$SECONDS
  echo "== $name ($doc): privadapt bench $*"
  if ! "$PA" bench "$@" --json > "$json" 2> "$OUT/$name.err"; then
    echo "FAIL $doc: the command failed ($(tail -n 1 "$OUT/$name.err"))"
    FAILED=1
    return 0
  fi
  if ! EXPECTED="$expected" python3 - "$json" "$DOCS/$doc" "$doc" <<'PY'
import json, os, sys

path, doc_path, doc = sys.argv[1:4]
results = json.load(open(path))["results"]
doc_lines = open(doc_path, encoding="utf-8").read().split("\n")

def cells(task, method):
    name, _, sweep = method.partition("[")
    sweep = dict(kv.split("=", 1) for kv in sweep.rstrip("]").split(",")) if sweep else {}
    return [r for r in results if r["method"] == name and (task == "average" or r["task"] == task)
            and all(r.get("sweep", {}).get(k) == v for k, v in sweep.items())]

def within(expected, got):
    decimals = len(expected.partition(".")[2])
    return abs(float(expected) - got) <= 0.5 * 10 ** -decimals + 1e-9

ok = True
for row in os.environ["EXPECTED"].split("\n"):
    if not row.strip():
        continue
    line, task, method, mean, *sd = row.split()
    where = f"{doc}:{line} {task} {method}"
    want = mean + (f" ± {sd[0]}" if sd else "")
    shown = want if task != "average" else mean
    if shown not in doc_lines[int(line) - 1]:
        print(f"FAIL {where}: the page's line no longer shows {shown} (update this script with the table)")
        ok = False
        continue
    found = cells(task, method)
    if not found:
        print(f"FAIL {where}: expected {want}, got no such result in the JSON")
        ok = False
        continue
    if task == "average":
        got_mean, got_sd = sum(100 * r["accuracy_mean"] for r in found) / len(found), None
    else:
        got_mean, got_sd = 100 * found[0]["accuracy_mean"], 100 * found[0]["accuracy_std"]
    good = within(mean, got_mean) and (not sd or within(sd[0], got_sd))
    got = f"{got_mean:.3f}" + (f" ± {got_sd:.3f}" if sd else "")
    print(f"{'PASS' if good else 'FAIL'} {where}: expected {want}, got {got}")
    ok = ok and good
sys.exit(0 if ok else 1)
PY
  then
    FAILED=1
  fi
  echo "   ($((SECONDS - start)) s)"
}

# bassily.md, Table 4: German credit risk (the row, and source-target in the note below the table)
check bassily bassily.md -- south-german-credit-risk --tasks short-residence:long-residence \
  --methods target-only,source-only,source-target,kmm,ncnvxadap,pncnvxadap,dp-target-only --runs 10 --seed 1 \
  --param target-train=200 --param target-validation=100 --param target-test=262 --epsilon 10 --delta 1e-4 \
  --relation replace --jobs 1 <<'EOF'
103 S->L source-only 78.2 2.0
103 S->L target-only 75.2 2.3
103 S->L kmm 76.3 2.7
103 S->L ncnvxadap 75.9 1.5
103 S->L pncnvxadap 74.7 4.2
103 S->L dp-target-only 69.9 2.0
108 S->L source-target 76.3 2.5
EOF

# deep-features.md, private methods at epsilon 2, GoogLeNet rows (DP-SGD learner, as the page says)
check deep-features deep-features.md -- office-caltech10-googlenet --methods source-only,coral,dp-source-only,prima \
  --epsilon 2 --seed 1 --runs 5 --jobs 1 --param learner=dp-sgd --param refine=none <<'EOF'
61 A->D source-only 91.1
61 A->D coral 82.2
61 A->D dp-source-only 89.6 1.3
61 A->D prima 88.9 3.0
62 A->W source-only 85.8
62 A->W coral 79.7
62 A->W dp-source-only 85.0 1.5
62 A->W prima 84.8 1.3
63 D->A source-only 92.3
63 D->A coral 86.2
63 D->A dp-source-only 49.4 6.3
63 D->A prima 44.2 10.5
64 D->W source-only 98.6
64 D->W coral 98.3
64 D->W dp-source-only 57.4 8.8
64 D->W prima 51.0 11.1
65 W->A source-only 92.4
65 W->A coral 84.6
65 W->A dp-source-only 69.4 7.7
65 W->A prima 63.2 8.0
66 W->D source-only 100.0
66 W->D coral 100.0
66 W->D dp-source-only 89.6 4.2
66 W->D prima 82.8 4.3
67 average source-only 93.4
67 average coral 88.5
67 average dp-source-only 73.4
67 average prima 69.1
EOF

# prima.md, the paper's multiclass and ensemble choices: the default row (DP-SGD learner, pinned on the page)
check prima prima.md -- office-caltech10 --methods prima --tasks C:A,A:C,W:D --runs 3 --seed 1 --epsilon 2 \
  --param learner=dp-sgd --jobs 1 <<'EOF'
287 C->A prima 35.6 2.5
287 A->C prima 30.9 2.0
287 W->D prima 31.2 5.4
287 average prima 32.6
EOF

# dpot.md, Table 1: the DSLR source (its delta 1/(1.2 n_s) and epsilon 20; dpot-office-caltech10.sh's D call)
check dpot dpot.md -- office-caltech10 --tasks D:A,D:C,D:W --relation replace --epsilon 20 --delta 5.308e-03 \
  --seed 1 --runs 3 --methods otda,pate,dpot-da --param level=attribute --jobs 1 <<'EOF'
43 D->A pate 13.2 3.4
43 D->A dpot-da 24.8 0.9
43 D->A otda 32.7
44 D->C pate 12.9 3.1
44 D->C dpot-da 25.3 2.3
44 D->C otda 28.5
45 D->W pate 24.6 2.7
45 D->W dpot-da 56.0 6.4
45 D->W otda 81.0
EOF

# dpda.md, dpda at epsilon 1, 2, 8 on B->D (sigma calibrated to the budget, the default since issue 29)
check dpda dpda.md -- amazon-reviews --methods dpda --epsilon 1,2,8 --tasks B:D --runs 3 --jobs 1 --seed 1 \
  --preprocess none --delta 1e-5 <<'EOF'
131 B->D dpda[epsilon=1.0] 80.1 0.3
132 B->D dpda[epsilon=2.0] 80.0 0.2
133 B->D dpda[epsilon=8.0] 80.1 0.2
EOF

# selection.md, learner=select on DeCAF6 D<->W (the table's average and the per-task cells below it)
check selection selection.md -- office-caltech10-decaf --methods dp-source-only --epsilon 2 --seed 1 --runs 3 \
  --jobs 1 --param learner=select --param refine=none <<'EOF'
19 average dp-source-only 43.7
41 D->W dp-source-only 34.5 8.1
41 W->D dp-source-only 52.9 4.6
EOF

# defaults.md, the protocol's grid on DeCAF6 D<->W: ncm without refinement and with map-prototypes (the rule's choice),
# and adassp with map-prototypes (the best fixed configuration there)
check defaults defaults.md -- office-caltech10-decaf --methods dp-source-only --epsilon 2 --seed 1 --runs 3 --jobs 1 \
  --source-public size,classes,schema --param learner=ncm --sweep refine=none,map-prototypes <<'EOF'
63 average dp-source-only[refine=none] 62.2
63 average dp-source-only[refine=map-prototypes] 78.3
EOF
check defaults-adassp defaults.md -- office-caltech10-decaf --methods dp-source-only --epsilon 2 --seed 1 --runs 3 --jobs 1 \
  --source-public size,classes,schema --param learner=adassp --param refine=map-prototypes <<'EOF'
63 average dp-source-only 85.6
EOF

# gmm-uda.md, issue 47: paper 004 on the frozen pretrained encoder (dp-uda-gmm, MiniLM, epsilon 5: the goal's cell; the
# launcher runs the encoders jar and reuses the cached encodings), DP source-only and PRIMA on the bag of words
check gmm-uda-minilm gmm-uda.md -- iu-chest-xray-uda --methods dp-uda-gmm --param encoder=minilm --epsilon 5 --delta 1e-5 \
  --runs 3 --seed 1 --jobs 1 <<'EOF'
113 F->I dp-uda-gmm 93.2 0.2
EOF
check gmm-uda-source-only gmm-uda.md -- iu-chest-xray-uda --methods dp-source-only --param encoder=bow \
  --epsilon 2.5,5,7.5,15 --delta 1e-5 --runs 3 --seed 1 --jobs 1 <<'EOF'
194 F->I dp-source-only[epsilon=2.5] 93.4 0.4
194 F->I dp-source-only[epsilon=5.0] 93.8 0.1
194 F->I dp-source-only[epsilon=7.5] 93.9 0.1
194 F->I dp-source-only[epsilon=15.0] 93.8 0.1
EOF
check gmm-uda-prima gmm-uda.md -- iu-chest-xray-uda --methods prima --param encoder=bow --epsilon 5 --delta 1e-5 --runs 3 \
  --seed 1 --jobs 1 <<'EOF'
218 F->I prima 93.2 0.6
EOF

if [[ $FAILED -ne 0 ]]; then
  echo "check-results: some numbers do not reproduce (FAIL lines above)"
  exit 1
fi
echo "check-results: every checked number reproduces"
