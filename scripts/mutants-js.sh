#!/usr/bin/env bash
# Mutation testing of the JavaScript subject (issue 25 section 3): StrykerJS mutates
# harness/node/subject (index.mjs, react.mjs, lib/*.mjs) and judges each mutant by the conformance
# run through the Node adapter (harness/node/subject/mutation/judge.mjs). A deep check, not in CI
# and not in `cargo test`; results and their reading in harness/node/subject/MUTATION.md.
#
#   scripts/mutants-js.sh [--shard K/N] [--mutate FILES] [stryker options...]
#
# --shard K/N runs only the mutants whose Stryker id is K mod N (K counts from 0; `0/10` .. `9/10`
# cover every mutant once, each an even sample of every file); the others are answered "outside
# shard" and left out of every figure. --mutate FILES (comma-separated, relative to
# harness/node/subject, Stryker's `file:line-line` ranges allowed) narrows the files; a shard of a
# narrowed run counts the narrowed list. Results go to target/mutants-js/shard-K-of-N/ (or
# target/mutants-js/all/): mutation.json and mutation.html (Stryker's reports), judge.jsonl (one
# line per judgement: the stage that decided, the first failing cases), wall.txt, and summary.txt
# (summary.mjs: the figures of MUTATION.md). Every other argument goes to `stryker run`.
# MUTANTS_JS_CONFORMANCE names the conformance binary (default target/release/conformance, built
# if missing); the run uses a copy of it and of vectors/, made when it starts, in the output folder. Runs under `nice -n 19`, one mutant at a time. Exit status: Stryker's, then the
# summary's (1 when a mutant of the run survived and is not listed as equivalent).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

usage() {
  echo "usage: scripts/mutants-js.sh [--shard K/N] [--mutate FILES] [stryker options...]" >&2
  exit 64
}

# shellcheck source=scripts/lib/options.sh
. scripts/lib/options.sh
shard=""
mutate=""
parse_options shard mutate -- "$@"
if [ -n "$shard" ] && ! [[ "$shard" =~ ^([0-9]+)/([0-9]+)$ && ${BASH_REMATCH[2]} -ge 1 && ${BASH_REMATCH[1]} -lt ${BASH_REMATCH[2]} ]]; then
  echo "mutants-js: --shard must be K/N with 0 <= K < N, not '$shard'" >&2
  exit 64
fi

[ -d harness/node/node_modules/react-dom ] || (cd harness/node && npm ci --no-audit --no-fund)
[ -d harness/node/subject/node_modules/ajv ] || (cd harness/node/subject && npm ci --no-audit --no-fund)
[ -d harness/node/subject/mutation/node_modules/@stryker-mutator/core ] || (cd harness/node/subject/mutation && npm ci --no-audit --no-fund)
bin="${MUTANTS_JS_CONFORMANCE:-$root/target/release/conformance}"
if [ ! -x "$bin" ]; then
  nice -n 19 cargo build -q --release -p harness --bin conformance
fi
case "$bin" in /*) ;; *) bin="$root/$bin" ;; esac

if [ -n "$shard" ]; then
  out="$root/target/mutants-js/shard-${shard%/*}-of-${shard#*/}"
else
  out="$root/target/mutants-js/all"
fi
rm -rf "$out"
mkdir -p "$out"
# The run judges with the vectors and the binary as they were when it started (copies in $out): a
# vector written or a rebuild made while a shard runs changes nothing of that shard's figures.
cp -a vectors "$out/vectors"
cp "$bin" "$out/conformance"
args=(run mutation/stryker.config.mjs)
[ -z "$mutate" ] || args+=(--mutate "$mutate")
started=$(date +%s)
status=0
(cd harness/node/subject && MUTANTS_JS_SHARD="$shard" MUTANTS_JS_OUT="$out" MUTANTS_JS_LOG="$out/judge.jsonl" \
  MUTANTS_JS_CONFORMANCE="$out/conformance" MUTANTS_JS_VECTORS="$out/vectors" nice -n 19 node mutation/node_modules/@stryker-mutator/core/bin/stryker.js \
  "${args[@]}" ${rest[@]+"${rest[@]}"}) || status=$?
echo "$(( $(date +%s) - started ))" > "$out/wall.txt"
[ "$status" -eq 0 ] || { echo "mutants-js: stryker exited $status" >&2; exit "$status"; }
node harness/node/subject/mutation/summary.mjs "$out" ${shard:+--shard "$shard"} | tee "$out/summary.txt"
exit "${PIPESTATUS[0]}"
