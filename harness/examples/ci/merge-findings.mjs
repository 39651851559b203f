#!/usr/bin/env node
// Joins the findings of a fuzz campaign split over several jobs (issue 27 §7): every vector file
// `conformance fuzz --out DIR` wrote under any `rcip/` or `rui/` folder below the given roots, into
// one vector set `--out DIR` (with both protocol folders, so `conformance run --vectors DIR` loads
// it), keeping one file per distinct shrunk case. Two findings are the same when their shrunk
// cases have the same setup and steps (compared as canonical JSON: member order ignored); the
// first by path is kept and the others are listed beside it. Findings that differ in their steps
// are all kept, even when one bug is behind them: `conformance run` on the joined set shows them
// grouped by their first difference.
//
// usage: node merge-findings.mjs --out DIR ROOT...
// Exit 0 when joined (finding nothing is fine); 2 on bad usage, an unreadable or malformed file,
// or an output folder that already holds files.

import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

function fail(message) {
  process.stderr.write(`merge-findings: ${message}\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let out;
const roots = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--out") {
    out = args[++i];
    if (!out) fail("--out needs a folder");
  } else if (args[i].startsWith("-")) {
    fail(`unknown option ${args[i]} (usage: merge-findings.mjs --out DIR ROOT...)`);
  } else {
    roots.push(args[i]);
  }
}
if (!out || roots.length === 0) fail("usage: merge-findings.mjs --out DIR ROOT...");
for (const root of roots) {
  if (!existsSync(root) || !statSync(root).isDirectory()) fail(`${root}: not a folder`);
}
if (existsSync(out) && readdirSync(out).some((name) => name !== "rcip" && name !== "rui" || readdirSync(join(out, name)).length > 0)) {
  fail(`${out} already holds files: give an empty or new folder`);
}

// Every *.json directly in a folder named rcip or rui, below the roots, in path order.
function findings(dir, found) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      findings(path, found);
    } else if (entry.isFile() && entry.name.endsWith(".json") && ["rcip", "rui"].includes(basename(dir))) {
      found.push({ path, protocol: basename(dir) });
    }
  }
  return found;
}

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const files = roots.flatMap((root) => findings(root, []));
const kept = new Map(); // key -> { path, protocol, name, ids, same: [] }
let cases = 0;
for (const file of files) {
  let document;
  try {
    document = JSON.parse(readFileSync(file.path, "utf8"));
  } catch (e) {
    fail(`${file.path}: not JSON: ${e.message}`);
  }
  if (!Array.isArray(document.cases) || document.cases.length === 0) fail(`${file.path}: not a vector file of conformance fuzz (no cases)`);
  const key = file.protocol + "\n" + document.cases.map((c) => canonical({ setup: c.setup, steps: c.steps })).join("\n");
  cases += document.cases.length;
  const ids = document.cases.map((c) => c.id);
  const first = kept.get(key);
  if (first) {
    first.same.push(...ids);
  } else {
    kept.set(key, { ...file, text: readFileSync(file.path), ids, same: [] });
  }
}

for (const protocol of ["rcip", "rui"]) mkdirSync(join(out, protocol), { recursive: true });
const names = new Set();
for (const finding of kept.values()) {
  // The fuzzer names a file by model, seed and case, so names from other seeds never collide;
  // the same seed run twice could, and then the later one gets a suffix.
  let name = basename(finding.path);
  for (let n = 2; names.has(`${finding.protocol}/${name}`); n++) name = basename(finding.path, ".json") + `-${n}.json`;
  names.add(`${finding.protocol}/${name}`);
  writeFileSync(join(out, finding.protocol, name), finding.text);
}

console.log(`${cases} finding(s) in ${files.length} file(s) under ${roots.join(", ")}; ${kept.size} distinct, written to ${out}`);
for (const finding of kept.values()) {
  const same = finding.same.length > 0 ? ` (also found as ${finding.same.join(", ")})` : "";
  console.log(`- ${finding.ids.join(", ")} from ${finding.path}${same}`);
}
