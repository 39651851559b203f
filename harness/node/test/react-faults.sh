#!/usr/bin/env bash
# The react vectors against planted React binding defects, through the Node adapter (issue 17):
# test/react-double.mjs without a defect must pass every rcip.react case (a second correct reading,
# written otherwise than the subject's), and with each defect it names must fail at least one
# REQUIRED case (errored, for the defect that makes React warn). A defect that passes every case
# means the vectors, or the adapter, let a realistic binding bug through.
#
#   bash harness/node/test/react-faults.sh        (from anywhere; CONFORMANCE names the binary)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$root"
bin="${CONFORMANCE:-target/debug/conformance}"
[ -x "$bin" ] || cargo build -q -p harness --bin conformance
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
defects=(none ref-in-render bind-in-render no-unbind no-context-clear stale-availability no-refresh keyless-children)
for defect in "${defects[@]}"; do
  # conformance exits non-zero when a case fails: that is the point for every defect but none.
  RCIP_REACT_DOUBLE="$defect" "$bin" run --quiet --filter rcip.react --report "$out/$defect.json" \
    --adapter -- node harness/node/adapter.mjs --react harness/node/test/react-double.mjs harness/node/subject/index.mjs \
    >"$out/$defect.log" 2>&1 || true
done
node -e '
const path = require("node:path");
const [dir, ...defects] = process.argv.slice(1);
let failed = 0;
for (const defect of defects) {
  let report;
  try { report = require(path.join(dir, defect + ".json")); } catch { console.error(`${defect}: no report`); failed += 1; continue; }
  const cases = report.cases;
  const count = (verdict) => cases.filter((c) => c.verdict === verdict && c.strictness === "REQUIRED").length;
  const wanted = defect === "keyless-children" ? "errored" : "fail";
  const ok = cases.length > 0 && (defect === "none" ? cases.every((c) => c.verdict === "pass") : count(wanted) > 0);
  console.log(`${ok ? "ok" : "NOT OK"}  ${defect}: ${cases.length} cases, ${cases.filter((c) => c.verdict === "pass").length} pass, ${count("fail")} REQUIRED fail, ${count("errored")} REQUIRED errored`);
  if (!ok) failed += 1;
}
console.log(`react faults: ${defects.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
' "$out" "${defects[@]}"
