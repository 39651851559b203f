#!/usr/bin/env bash
# Mutation score of the vectors (issue 13, section 3): runs cargo-mutants over `reference/` with
# `.cargo/mutants.toml` (only the vector tests judge a mutant), one shard at a time so the whole
# run fits a small machine in several sittings. Documented in reference/MUTATION.md.
#
#   scripts/mutants.sh --shard K/N [cargo-mutants options...]
#
# K counts from 0 (cargo-mutants' convention): `--shard 0/10` .. `--shard 9/10` cover every mutant
# once. Sharding is round-robin (set in .cargo/mutants.toml), so each shard is an even sample.
# Results go to target/mutants/shard-K-of-N/mutants.out (outcomes.json, caught.txt, missed.txt,
# timeout.txt, unviable.txt), outside version control. Every other argument is passed through to
# `cargo mutants`, e.g. `--in-place` (only in a scratch clone: it edits the sources while it runs,
# one mutant at a time, and cannot be combined with `--jobs`), `--list`,
# `--file reference/src/schema.rs`. MUTANTS_TEST_TIMEOUT (seconds, default 30) sets the test timeout.
# Exit status is cargo-mutants': 0 all caught, 1 bad usage, 2 some missed, 3 some timed out,
# 4 the unmutated tree already fails its vectors.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/mutants.sh --shard K/N [cargo-mutants options...]" >&2
  exit 64
}

shard=""
rest=()
while [ $# -gt 0 ]; do
  case "$1" in
    --shard) [ $# -ge 2 ] || usage; shard="$2"; shift 2 ;;
    --shard=*) shard="${1#--shard=}"; shift ;;
    -h|--help) usage ;;
    *) rest+=("$1"); shift ;;
  esac
done

if ! [[ "$shard" =~ ^([0-9]+)/([0-9]+)$ ]]; then
  echo "error: --shard K/N is required (K from 0 to N-1), got '${shard}'" >&2
  usage
fi
k="${BASH_REMATCH[1]}"
n="${BASH_REMATCH[2]}"
if [ "$n" -lt 1 ] || [ "$k" -ge "$n" ]; then
  echo "error: --shard $shard: K must be less than N (K counts from 0)" >&2
  exit 64
fi

if ! cargo mutants --version >/dev/null 2>&1; then
  echo "error: cargo-mutants is not installed: cargo install cargo-mutants --locked" >&2
  exit 69
fi

# cargo-mutants' own baseline would test the mutated package (`reference`), which has no `vectors`
# test target; so the baseline is run here: the unmutated tree must pass every vector, or no
# mutant could be judged. Then cargo-mutants runs with `--baseline=skip`, which needs an
# explicit test timeout: the vectors take about 4 s with cargo, and a loaded shared machine can
# triple that; a mutant that hangs (a mutated loop bound) is stopped and counted as a timeout.
listing=0
timeout_given=0
for arg in "${rest[@]}"; do
  case "$arg" in
    --list|--list-files) listing=1 ;;
    --timeout|--timeout=*|-t) timeout_given=1 ;;
  esac
done
extra=(--baseline=skip)
if [ "$timeout_given" = 0 ]; then
  extra+=(--timeout "${MUTANTS_TEST_TIMEOUT:-30}")
fi
if [ "$listing" = 0 ]; then
  echo "== baseline: cargo test -p harness --test vectors (unmutated)" >&2
  if ! cargo test -q -p harness --test vectors >/dev/null; then
    echo "error: the unmutated tree fails its vector tests; no mutant can be judged" >&2
    exit 4
  fi
fi

out="target/mutants/shard-${k}-of-${n}"
mkdir -p "$out"
echo "== cargo mutants, shard $k/$n (round-robin), results in $out/mutants.out" >&2
start=$(date +%s)
status=0
cargo mutants --shard "$k/$n" --output "$out" "${extra[@]}" "${rest[@]}" || status=$?
end=$(date +%s)
echo "== shard $k/$n: exit $status, wall time $((end - start)) s" >&2
exit "$status"
