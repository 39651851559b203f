#!/usr/bin/env bash
# Every admissible reference passes (issue 26, section 3): runs the whole suite against the bundled
# reference with each row of the choices table (`reference-driver --choices list`) drawn
# independently from a seed (`--reference-choices random:SEED`), for COUNT seeds from FIRST. A
# seed passes when no case fails and none errors (`non-strict`, a RECOMMENDED difference, is
# allowed). A failing seed is shrunk to the smallest set of rows that still fails (greedy: each
# row is dropped when the run still fails without it), and the script prints that set (as the
# `rows:` spelling that replays it) with the cases that fail under it: those cases pin a choice
# the texts leave open.
#
#   scripts/choice-seeds.sh [FIRST [COUNT]] [-- conformance run options...]
#
# Options after `--` go to every `conformance run` (e.g. `--vectors DIR` to try a vector set of
# your own). Exit status: 0 every seed passed, 1 a seed failed (shrunk set printed), 2 bad usage or
# a run that produced no report.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/choice-seeds.sh [FIRST [COUNT]] [-- conformance run options...]" >&2
  exit 2
}

first=1
count=8
positional=()
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --) shift; extra=("$@"); break ;;
    -h|--help) usage ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -le 2 ] || usage
[ ${#positional[@]} -ge 1 ] && first="${positional[0]}"
[ ${#positional[@]} -ge 2 ] && count="${positional[1]}"
[[ "$first" =~ ^[0-9]+$ && "$count" =~ ^[1-9][0-9]*$ ]] || usage

cargo build --locked -q -p harness --bins
bin=target/debug
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The ids of the cases that fail or error under the choices spelled $1, one per line (none: the
# reading passes). A run that writes no report is an infrastructure error, never a pass.
failing() {
  rm -f "$work/report.json"
  "$bin/conformance" run --quiet --reference-choices "$1" --report "$work/report.json" "${extra[@]}" \
    >"$work/out.txt" 2>&1 || true
  if [ ! -s "$work/report.json" ]; then
    echo "choice-seeds: the run under --reference-choices $1 wrote no report:" >&2
    cat "$work/out.txt" >&2
    exit 2
  fi
  node -e '
    const r = require(process.argv[1]);
    for (const c of r.cases) if (c.verdict === "fail" || c.verdict === "errored") console.log(c.id);
  ' "$work/report.json"
}

status=0
for ((seed = first; seed < first + count; seed++)); do
  spelling=$("$bin/reference-driver" --choices "random:$seed" --show-choices)
  cases=$(failing "random:$seed")
  rows=${spelling#rows:}
  taken=$(tr ',' '\n' <<<"$rows" | grep -c . || true)
  if [ -z "$cases" ]; then
    echo "seed $seed: pass ($taken rows take their alternate)"
    continue
  fi
  status=1
  echo "seed $seed: $(wc -l <<<"$cases") cases fail or error under $spelling; shrinking"
  IFS=',' read -r -a kept <<<"$rows"
  i=0
  while [ $i -lt ${#kept[@]} ]; do
    trial=("${kept[@]:0:$i}" "${kept[@]:$((i + 1))}")
    joined=$(IFS=','; echo "${trial[*]}")
    if [ -n "$(failing "rows:$joined")" ]; then
      kept=("${trial[@]}")
    else
      i=$((i + 1))
    fi
  done
  smallest=$(IFS=','; echo "${kept[*]}")
  echo "seed $seed: smallest failing set rows:$smallest (replay: conformance run --reference-choices rows:$smallest)"
  failing "rows:$smallest" | sed 's/^/  pins a choice: /'
done
exit $status
