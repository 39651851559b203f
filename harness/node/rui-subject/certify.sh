#!/usr/bin/env bash
# Certifies the JavaScript Rixx UI consumer (this directory) through the Node adapter with the
# project's own CLI: exactly the command an implementer runs against their consumer module
# (harness/node/README.md, "Rixx UI consumer surface"). Extra arguments go to `conformance run`
# before `--adapter` (for example `--report r.json`, `--filter rui.framing-sse.`). Exit status:
# conformance's own.
#
#   bash harness/node/rui-subject/certify.sh [conformance run options...]
#
# CONFORMANCE names the conformance binary (default target/debug/conformance, built if missing).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$root"
[ -d harness/node/node_modules/@sinonjs ] || (cd harness/node && npm ci --no-audit --no-fund)
[ -d harness/node/rui-subject/node_modules/ajv ] || (cd harness/node/rui-subject && npm ci --no-audit --no-fund)
bin="${CONFORMANCE:-target/debug/conformance}"
if [ ! -x "$bin" ]; then
  cargo build -q -p harness --bin conformance
fi
exec "$bin" run "$@" --adapter -- node harness/node/adapter.mjs harness/node/rui-subject/index.mjs
