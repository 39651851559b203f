#!/usr/bin/env bash
# Certifies the JavaScript subject (this directory) through the Node adapter with the project's own
# CLI: exactly the command an implementer runs against their module (harness/node/README.md).
# Extra arguments go to `conformance run` before `--adapter` (for example `--report r.json`,
# `--markdown certification.md`, `--filter rcip.assist.`). Exit status: conformance's own.
#
#   bash harness/node/subject/certify.sh [conformance run options...]
#
# CONFORMANCE names the conformance binary (default target/debug/conformance, built if missing).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$root"
# A node_modules from before the react profile lacks React: install again (npm ci) then too.
[ -d harness/node/node_modules/react-dom ] || (cd harness/node && npm ci --no-audit --no-fund)
[ -d harness/node/subject/node_modules ] || (cd harness/node/subject && npm ci --no-audit --no-fund)
bin="${CONFORMANCE:-target/debug/conformance}"
if [ ! -x "$bin" ]; then
  cargo build -q -p harness --bin conformance
fi
exec "$bin" run "$@" --adapter -- node harness/node/adapter.mjs --react harness/node/subject/react.mjs harness/node/subject/index.mjs
