#!/usr/bin/env bash
# The steps of github-actions.yml (and gitlab-ci.yml) on one machine (issue 27 §7): certify an
# implementation in SHARDS shards, join the shard reports into one report and certification, run a
# fuzz campaign split into seed ranges, and join and deduplicate its findings, then run the
# distinct findings again. The project's CI runs it against the reference driver; an implementer
# can run it before pushing the workflow.
#
# usage: harness/examples/ci/local.sh [--shards N] [--ranges R] [--seeds-per-range S]
#            [--fuzz-cases C] [--out DIR] [--conformance BIN] -- ADAPTER ARGS...
# Exit: 0 certified and nothing found; 1 the joined run failed or a distinct finding still fails
# (as the workflow's jobs would); 2 bad usage or an error of a step itself.
set -euo pipefail

shards=4 ranges=2 per_range=2 cases=500 out=target/ci-local conformance=""
while [ $# -gt 0 ]; do
  case "$1" in
    --shards) shards=$2; shift 2 ;;
    --ranges) ranges=$2; shift 2 ;;
    --seeds-per-range) per_range=$2; shift 2 ;;
    --fuzz-cases) cases=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --conformance) conformance=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "local.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ $# -eq 0 ]; then echo "local.sh: give the adapter after --" >&2; exit 2; fi
for number in "$shards" "$ranges" "$per_range" "$cases"; do
  case "$number" in ''|*[!0-9]*|0) echo "local.sh: $number is not a positive count" >&2; exit 2 ;; esac
done
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$conformance" ]; then
  (cd "$here/../../.." && cargo build --locked -q -p harness --bin conformance)
  conformance="$here/../../../target/debug/conformance"
fi
rm -rf "$out"
mkdir -p "$out"
worst=0
# An exit of 1 is a verdict (a failure, a finding); anything above is an error of the step.
step() {
  local status=0
  "$@" || status=$?
  if [ "$status" -gt 1 ]; then echo "local.sh: step failed ($status): $*" >&2; exit 2; fi
  if [ "$status" -gt "$worst" ]; then worst=$status; fi
}

echo "== certify: $shards shards"
for k in $(seq 1 "$shards"); do
  step "$conformance" run --quiet --shard "$k/$shards" --report "$out/shard-$k.json" --adapter -- "$@" >/dev/null
done
echo "== report --merge"
step "$conformance" report --merge "$out"/shard-*.json --report "$out/conformance-report.json" \
  --junit "$out/junit.xml" --html "$out/conformance.html" --markdown "$out/certification.md" >/dev/null
grep -m2 -E '^(RCIP 1\.0|Rixx UI 0\.1|\*\*|- )' "$out/certification.md" || true

echo "== fuzz: $ranges ranges of $per_range seeds, $cases cases each"
for r in $(seq 0 $((ranges - 1))); do
  mkdir -p "$out/campaign/findings-$r"
  for seed in $(seq $((r * per_range + 1)) $((r * per_range + per_range))); do
    step "$conformance" fuzz --seed "$seed" --cases "$cases" --out "$out/campaign/findings-$r" --adapter -- "$@" >/dev/null
  done
done
echo "== merge-findings"
node "$here/merge-findings.mjs" --out "$out/findings" "$out/campaign" || exit 2
if [ -n "$(find "$out/findings" -name '*.json')" ]; then
  echo "== the distinct findings, run again"
  step "$conformance" --vectors "$out/findings" run --quiet --adapter -- "$@" >/dev/null
fi
echo "local.sh: exit $worst (reports in $out)"
exit "$worst"
