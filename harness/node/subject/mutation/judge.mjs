#!/usr/bin/env node
// Judges one StrykerJS mutant of the JavaScript subject by the conformance run through the Node
// adapter (issue 25 section 3): the command of stryker.config.mjs, run by judge-runner.mjs in
// Stryker's sandbox (the working directory: a copy of harness/node/subject with the mutants
// switched in, __STRYKER_ACTIVE_MUTANT__ naming the active one).
//
// `conformance run` has no option to stop at the first failing case, so the judge runs in two
// stages: first the sections most likely to fail for the file the mutant is in (MUTANTS_JS_FILE,
// FIRST below), then, only if those all pass, the whole run exactly as certify.sh runs it (every
// case, the first stage's included, with the React entry). A mutant that survives has therefore
// been judged by the full run. The first stage of a file other than react.mjs drives the core
// entry alone (no `--react`: the adapter then sets up no DOM, which is most of its start-up cost);
// that is the certification of the subject without its React entry, which the unmutated subject
// passes too: the dry run (no active mutant) runs every first stage and the full run and fails if
// any of them fails, so a first-stage failure is the mutant's.
//
// Exit status: 1 when a stage exits non-zero (a case `fail`ed or `errored`, the adapter could not
// start, the circuit breaker stopped the run, or nothing was judged), 0 when the full run exits 0.
// A RECOMMENDED mismatch (`non-strict`) does not fail `conformance run`, so it does not kill here
// either; the log line counts it (summary.mjs shows the counts of each survivor's full run).
//
// MUTANTS_JS_CONFORMANCE names the conformance binary (default target/release/conformance) and
// MUTANTS_JS_VECTORS the vector folder (default: the binary's own, the repository's vectors/);
// MUTANTS_JS_LOG, when set, gets one JSON line per judgement (mutant, place, mutator, the stages
// run with their exit codes, verdict counts, first failing cases and seconds).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../../..');
const conformance = process.env.MUTANTS_JS_CONFORMANCE ?? path.join(root, 'target/release/conformance');
const vectors = process.env.MUTANTS_JS_VECTORS ? ['--vectors', process.env.MUTANTS_JS_VECTORS] : [];
const sandbox = process.cwd();

/** The first stage per mutated file: `conformance run` selection options (prefixes of case ids). */
const FIRST = {
  'assist.mjs': ['--filter', 'rcip.assist.'],
  'react.mjs': ['--filter', 'rcip.react.'],
  'definition.mjs': ['--filter', 'rcip.definitions.', '--filter', 'rcip.identifiers.', '--filter', 'rcip.schema-profile.'],
  'json.mjs': ['--filter', 'rcip.json-values.', '--filter', 'rcip.detachment.'],
  'schema.mjs': ['--filter', 'rcip.schema-profile.', '--filter', 'rcip.execution.'],
  'outcomes.mjs': ['--filter', 'rcip.outcomes.', '--filter', 'rcip.execution.', '--filter', 'rcip.policy.'],
};
/** Every other file (runtime.mjs, index.mjs, errors.mjs): a broad sample of the invocation path. */
const FIRST_DEFAULT = [
  '--filter', 'rcip.execution.', '--filter', 'rcip.policy.', '--filter', 'rcip.confirmation.',
  '--filter', 'rcip.snapshot.', '--filter', 'rcip.binding.',
];

/** `react`: whether the adapter is given the React entry (the full run always is). */
function runStage(name, selection, react, reportPath) {
  const entry = react ? ['--react', path.join(sandbox, 'react.mjs')] : [];
  const args = [
    ...vectors, 'run', '--quiet', '--report', reportPath, ...selection,
    '--adapter', '--', 'node', path.join(root, 'harness/node/adapter.mjs'), ...entry, path.join(sandbox, 'index.mjs'),
  ];
  const started = Date.now();
  const result = spawnSync(conformance, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  const stage = { stage: name, exit: result.status ?? -1, seconds: (Date.now() - started) / 1000 };
  if (result.error) stage.error = String(result.error);
  try {
    const report = JSON.parse(fs.readFileSync(reportPath, 'utf8'));
    const counts = {};
    const failing = [];
    for (const c of report.cases) {
      counts[c.verdict] = (counts[c.verdict] ?? 0) + 1;
      if (c.verdict !== 'pass' && c.verdict !== 'unsupported' && c.verdict !== 'skip') failing.push(`${c.id}:${c.verdict}`);
    }
    stage.counts = counts;
    stage.failing = failing.slice(0, 5);
  } catch {
    stage.stderr = result.stderr?.toString('utf8').slice(-600);
  }
  return stage;
}

/** A hang (a timer never settling) ends a first stage early: 5 s per step, two in a row. */
const FAST = ['--step-timeout', '5000', '--max-timeouts', '2'];

function firstStage(file, reportPath) {
  return runStage(`first(${file || 'default'})`, [...FAST, ...(FIRST[file] ?? FIRST_DEFAULT)], file === 'react.mjs', reportPath);
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mutants-js-'));
const stages = [];
try {
  if (process.env.__STRYKER_ACTIVE_MUTANT__ !== undefined) {
    stages.push(firstStage(process.env.MUTANTS_JS_FILE ?? '', path.join(scratch, 'first.json')));
  } else {
    // The dry run: every first stage must pass the unmutated subject, as the full run must.
    for (const file of [...Object.keys(FIRST), '']) {
      stages.push(firstStage(file, path.join(scratch, `first-${file}.json`)));
    }
  }
  if (stages.every((stage) => stage.exit === 0)) stages.push(runStage('full', [], true, path.join(scratch, 'full.json')));
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
const last = stages.find((stage) => stage.exit !== 0) ?? stages[stages.length - 1];
if (process.env.MUTANTS_JS_LOG) {
  const line = {
    mutant: process.env.__STRYKER_ACTIVE_MUTANT__ ?? null,
    place: process.env.MUTANTS_JS_PLACE ?? null,
    mutator: process.env.MUTANTS_JS_MUTATOR ?? null,
    killed: last.exit !== 0,
    stages,
  };
  fs.appendFileSync(process.env.MUTANTS_JS_LOG, `${JSON.stringify(line)}\n`);
}
if (last.exit !== 0) {
  process.stderr.write(`killed at stage ${last.stage}: exit ${last.exit}; ${(last.failing ?? []).join(' ')}\n${last.stderr ?? ''}\n`);
  process.exit(1);
}
process.exit(0);
