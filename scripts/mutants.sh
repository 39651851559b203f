#!/usr/bin/env bash
# Mutation score of the vectors (issue 13, section 3): runs cargo-mutants over `reference/` with
# `.cargo/mutants.toml` (only the vector tests judge a mutant), one shard at a time so the whole
# run fits a small machine in several sittings. Documented in reference/MUTATION.md.
#
#   scripts/mutants.sh --shard K/N [cargo-mutants options...]
#   scripts/mutants.sh --shard K/N --judge catalog|alternate|own [--missed FILE] [cargo-mutants options...]
#
# K counts from 0 (cargo-mutants' convention): `--shard 0/10` .. `--shard 9/10` cover every mutant
# once. Sharding is round-robin (set in .cargo/mutants.toml), so each shard is an even sample.
# Results go to target/mutants/shard-K-of-N/mutants.out (outcomes.json, caught.txt, missed.txt,
# timeout.txt, unviable.txt), outside version control. Every other argument is passed through to
# `cargo mutants`, e.g. `--in-place` (only in a scratch clone: it edits the sources while it runs,
# one mutant at a time, and cannot be combined with `--jobs`), `--list`,
# `--re '^reference/src/schema\.rs:'` (one file; `--file` does not narrow: it adds to examine_globs). MUTANTS_TEST_TIMEOUT (seconds, default 30) sets the test timeout.
# Exit status is cargo-mutants': 0 all caught, 1 bad usage, 2 some missed, 3 some timed out,
# 4 the unmutated tree already fails its vectors.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/mutants.sh --shard K/N [--judge vectors|catalog|alternate|own] [--missed FILE] [cargo-mutants options...]" >&2
  exit 64
}

# shellcheck source=scripts/lib/options.sh
. scripts/lib/options.sh
shard=""
judge="vectors"
missed=""
parse_options shard judge missed -- "$@"

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

case "$judge" in
  vectors|catalog|alternate|own) ;;
  *) echo "error: --judge must be 'vectors', 'catalog', 'alternate' or 'own', got '${judge}'" >&2; exit 64 ;;
esac
if [ -n "$missed" ] && [ "$judge" = vectors ]; then
  echo "error: --missed only goes with --judge catalog, alternate or own" >&2
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
# Per judge: the default test timeout, the unmutated baseline, and what judges a mutant.
case "$judge" in
  vectors)
    default_timeout=30
    baseline=(cargo test -q -p harness --test vectors)
    by="the vectors" ;;
  catalog)
    default_timeout=300
    baseline=(cargo test -q -p harness --test vectors --test faults)
    by="the vectors and the fault catalog" ;;
  alternate)
    default_timeout=60
    baseline=(cargo test -q -p harness --test faults -- --exact the_alternate_reference_fails_nothing)
    by="the alternate run" ;;
  own)
    default_timeout=120
    baseline=(cargo test -q -p reference)
    by="the reference's own tests" ;;
esac
if [ "$judge" != vectors ]; then
  out="target/mutants/shard-${k}-of-${n}-${judge}"
  missed="${missed:-target/mutants/shard-${k}-of-${n}/mutants.out/missed.txt}"
  if [ ! -r "$missed" ]; then
    echo "error: --judge $judge re-judges the mutants the vectors missed, but '$missed' cannot be read; run the shard with --judge vectors first, or give --missed FILE" >&2
    exit 66
  fi
  # One anchored, escaped regex per missed mutant: exactly those mutants, whatever the shard.
  count=0
  while IFS= read -r name; do
    [ -n "$name" ] || continue
    escaped=$(printf '%s' "$name" | sed -e 's/[][\\.*^$(){}?+|]/\\&/g')
    extra+=(--re "^${escaped}\$")
    count=$((count + 1))
  done <"$missed"
  if [ "$count" = 0 ]; then
    echo "== '$missed' lists no mutant: nothing to judge again" >&2
    exit 0
  fi
  extra+=(--config ".cargo/mutants-${judge}.toml")
  what="the $count mutants of $missed, judged by $by"
else
  out="target/mutants/shard-${k}-of-${n}"
  extra+=(--shard "$k/$n")
  what="shard $k/$n (round-robin), judged by $by"
fi
if [ "$timeout_given" = 0 ]; then
  extra+=(--timeout "${MUTANTS_TEST_TIMEOUT:-$default_timeout}")
fi
if [ "$listing" = 0 ]; then
  echo "== baseline: ${baseline[*]} (unmutated)" >&2
  if ! "${baseline[@]}" >/dev/null; then
    echo "error: the unmutated tree fails its tests; no mutant can be judged" >&2
    exit 4
  fi
fi

mkdir -p "$out"
echo "== cargo mutants: $what; results in $out/mutants.out" >&2
start=$(date +%s)
status=0
cargo mutants --output "$out" "${extra[@]}" "${rest[@]}" || status=$?
end=$(date +%s)
echo "== $what: exit $status, wall time $((end - start)) s" >&2
exit "$status"
