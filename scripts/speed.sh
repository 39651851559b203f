#!/usr/bin/env bash
# The speed goals of issue 29, measured with release builds as medians of interleaved runs (the
# machine may be shared: every variant runs once per round, in turn, so load hits them alike).
# Wall time and CPU time (user + sys of the harness and everything it started) are printed, and
# the ratios in both: on a loaded machine wall time is mostly waiting to be scheduled, and CPU time
# is the steadier figure (the goals of issue 29 are stated in wall time on a quiet machine).
#
#   scripts/speed.sh [ROUNDS] [suite|fuzz|node|validate]...     (default: 5 rounds, all four)
#
# SPEED_PROFILE=debug measures the debug build instead (quicker to build; the harness's own share
# is then larger than in release).
#
# - suite: the whole suite in-process, through reference-driver over stdio pipelined and one
#   request at a time (--no-pipelining); "loading" is a run that loads the vectors and selects no
#   case (the common cost), subtracted before the ratios.
# - fuzz: `conformance fuzz --cases 3000 --max-steps 10` (paths of at most 10 steps, all three
#   models) in-process and over stdio, as paths per second.
# - node: every RCIP case (React included) through the Node adapter and the JavaScript subject
#   (needs `npm ci` in harness/node and harness/node/subject), against the same selection through
#   reference-driver over stdio; and the adapter's start-up alone (a `hello` then `bye` piped in:
#   loading jsdom, fake-timers and the subject), so that start-up and the cases' share are told apart.
# - validate: `conformance validate` on a generated stream (`generate-stream`, VALIDATE_MIB MiB,
#   default 512) in jsonl and sse, as MiB/s of CPU time (issue 29 §3); then, once, the peak RSS of
#   validating a 1 GiB stream piped in (constant memory).
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=5
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then rounds=$1; shift; fi
what=("$@")
[ ${#what[@]} -gt 0 ] || what=(suite fuzz node validate)

profile=${SPEED_PROFILE:-release}
case $profile in
  release) cargo build --locked -q --release -p harness --bins ;;
  debug) cargo build --locked -q -p harness --bins ;;
  *) echo "SPEED_PROFILE is release or debug" >&2; exit 2 ;;
esac
bin=target/$profile/conformance
driver=target/$profile/reference-driver
node_adapter=(node harness/node/adapter.mjs --react harness/node/subject/react.mjs harness/node/subject/index.mjs)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# time_one NAME CMD...: one run, appended to $out/NAME as "wall cpu" (its exit status is ignored:
# the loading-only run exits 2 by design).
time_one() {
  local name=$1
  shift
  # Bash's own `time`, to the millisecond (GNU time prints hundredths, too coarse for runs of a
  # quarter of a second); user and sys include every process the command started and waited for.
  local TIMEFORMAT='%3R %3U %3S'
  { time "$@" >/dev/null 2>&1 || true; } 2>"$out/t"
  tail -1 "$out/t" | awk '{ printf "%s %.3f\n", $1, $2 + $3 }' >>"$out/$name"
}

median() {
  sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

report() {
  local name=$1
  local wall cpu
  wall=$(cut -d' ' -f1 "$out/$name" | median)
  cpu=$(cut -d' ' -f2 "$out/$name" | median)
  printf '%-28s wall %7.3f s  cpu %7.3f s  (%s runs)\n' "$name" "$wall" "$cpu" "$(wc -l <"$out/$name")"
  echo "$wall" >"$out/$name.wall"
  echo "$cpu" >"$out/$name.cpu"
}

wall() { cat "$out/$1.wall"; }
cpu() { cat "$out/$1.cpu"; }

validate_mib=${VALIDATE_MIB:-512}
if [[ " ${what[*]} " == *" validate "* ]]; then
  for f in jsonl sse; do
    "$bin" generate-stream --framing $f --bytes $((validate_mib << 20)) --catalog-out "$out/catalog.json" >"$out/stream.$f"
  done
fi

echo "$profile build; load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for _ in $(seq "$rounds"); do
  for w in "${what[@]}"; do
    case $w in
      suite)
        time_one loading "$bin" run --quiet --filter no.such.case
        time_one suite-in-process "$bin" run --quiet
        time_one suite-stdio-pipelined "$bin" run --quiet --adapter -- "$driver"
        time_one suite-stdio-one-at-a-time "$bin" run --quiet --no-pipelining --adapter -- "$driver"
        ;;
      fuzz)
        time_one fuzz-in-process "$bin" fuzz --cases 3000 --max-steps 10
        time_one fuzz-stdio-pipelined "$bin" fuzz --cases 3000 --max-steps 10 --adapter -- "$driver"
        time_one fuzz-stdio-one-at-a-time "$bin" fuzz --cases 3000 --max-steps 10 --no-pipelining --adapter -- "$driver"
        ;;
      node)
        time_one rcip-reference-stdio "$bin" run --quiet --filter rcip. --adapter -- "$driver"
        time_one rcip-node-pipelined "$bin" run --quiet --filter rcip. --adapter -- "${node_adapter[@]}"
        time_one rcip-node-one-at-a-time "$bin" run --quiet --filter rcip. --no-pipelining --adapter -- "${node_adapter[@]}"
        time_one rcip-node-start-up sh -c 'printf "%s\n" "{\"cmd\":\"hello\",\"protocol\":\"rcip-rui-driver/1\"}" "{\"cmd\":\"bye\"}" | "$@"' sh "${node_adapter[@]}"
        ;;
      validate)
        for f in jsonl sse; do
          time_one "validate-$f" "$bin" validate --catalog "$out/catalog.json" --framing $f "$out/stream.$f"
        done
        ;;
      *) echo "unknown measurement $w (suite, fuzz, node, validate)" >&2; exit 2 ;;
    esac
  done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

for w in "${what[@]}"; do
  case $w in
    suite)
      for n in loading suite-in-process suite-stdio-pipelined suite-stdio-one-at-a-time; do report $n; done
      awk -v l="$(wall loading)" -v i="$(wall suite-in-process)" -v p="$(wall suite-stdio-pipelined)" -v s="$(wall suite-stdio-one-at-a-time)" 'BEGIN {
        printf "suite without loading: in-process %.3f s, stdio pipelined %.3f s (%.2fx), one at a time %.3f s (%.2fx)\n", i - l, p - l, (p - l) / (i - l), s - l, (s - l) / (i - l) }'
      awk -v i="$(wall suite-in-process)" -v p="$(wall suite-stdio-pipelined)" 'BEGIN {
        printf "whole runs, wall: stdio pipelined / in-process %.2fx\n", p / i }'
      awk -v l="$(cpu loading)" -v i="$(cpu suite-in-process)" -v p="$(cpu suite-stdio-pipelined)" -v s="$(cpu suite-stdio-one-at-a-time)" 'BEGIN {
        printf "CPU time (both processes): whole runs stdio pipelined / in-process %.2fx; without loading %.2fx, one at a time %.2fx\n", p / i, (p - l) / (i - l), (s - l) / (i - l) }'
      ;;
    fuzz)
      for n in fuzz-in-process fuzz-stdio-pipelined fuzz-stdio-one-at-a-time; do report $n; done
      awk -v i="$(wall fuzz-in-process)" -v p="$(wall fuzz-stdio-pipelined)" -v s="$(wall fuzz-stdio-one-at-a-time)" 'BEGIN {
        printf "fuzz paths/s (3000 paths of <= 10 steps): in-process %.0f, stdio pipelined %.0f, one at a time %.0f\n", 3000 / i, 3000 / p, 3000 / s }'
      awk -v i="$(cpu fuzz-in-process)" -v p="$(cpu fuzz-stdio-pipelined)" 'BEGIN {
        printf "fuzz paths per CPU second (both processes): in-process %.0f, stdio pipelined %.0f\n", 3000 / i, 3000 / p }'
      ;;
    node)
      for n in rcip-reference-stdio rcip-node-pipelined rcip-node-one-at-a-time rcip-node-start-up; do report $n; done
      awk -v r="$(wall rcip-reference-stdio)" -v p="$(wall rcip-node-pipelined)" -v s="$(wall rcip-node-one-at-a-time)" 'BEGIN {
        printf "RCIP + React, Node adapter / stdio reference: pipelined %.2fx, one at a time %.2fx\n", p / r, s / r }'
      awk -v r="$(cpu rcip-reference-stdio)" -v p="$(cpu rcip-node-pipelined)" 'BEGIN {
        printf "the same in CPU time (both processes): pipelined %.2fx\n", p / r }'
      awk -v r="$(cpu rcip-reference-stdio)" -v p="$(cpu rcip-node-pipelined)" -v u="$(cpu rcip-node-start-up)" 'BEGIN {
        printf "CPU time: the Node adapter start-up %.2f s; the rest of the pipelined run (both processes) %.2f s, %.2fx the whole reference run\n", u, p - u, (p - u) / r }'
      ;;
    validate)
      for f in jsonl sse; do
        report "validate-$f"
        cpu=$(cut -d' ' -f2 "$out/validate-$f" | median)
        awk -v m="$validate_mib" -v c="$cpu" -v f="$f" 'BEGIN { printf "validate %s: %.0f MiB/s of CPU time (%d MiB)\n", f, m / c, m }'
      done
      rm -f "$out"/stream.*
      for f in jsonl sse; do
        "$bin" generate-stream --framing $f --bytes $((1 << 30)) |
          /usr/bin/time -o "$out/rss" -f "%M" "$bin" validate --catalog "$out/catalog.json" --framing $f - >/dev/null 2>&1 || true
        echo "validate $f, 1 GiB piped in: peak RSS $(tail -1 "$out/rss") KiB"
      done
      ;;
  esac
done
