#!/usr/bin/env node
// The bug zoo (issue 25 section 2): every bug of bugs.json, planted alone in a fresh copy of the
// JavaScript subject, must fail at least one case (a `fail` verdict: a REQUIRED check, or an
// IMPL-DEFINED one outside every alternative) of the sections it names, run through the Node
// adapter with the project's own CLI; and the unplanted copy must pass every case of all those
// sections. A bug no case catches means a vector is missing (write it from the sentence the bug
// breaks) or the texts leave the behaviour open (then the bug leaves the zoo, with the reason).
//
//   node harness/node/subject/zoo/zoo.mjs [--only NAME[,NAME...]] [--list] [--jobs N]
//
// A bug's `also` is one more edit or a list of them, each `{find, replace, file?}` (`file`
// defaults to the bug's own). Bugs run `--jobs` at a time (default 2, ZOO_JOBS): each in its own
// copy, so they cannot see each other; the output keeps the order of bugs.json.
//
// CONFORMANCE names the conformance binary (default target/debug/conformance). Exit status: 0
// when every bug is caught and the baseline passes, 1 otherwise, 2 on bad usage or a bug whose
// `find` text does not occur exactly once (the subject changed under it).

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const subject = path.resolve(here, '..');
const root = path.resolve(subject, '../../..');
const conformance = process.env.CONFORMANCE ?? path.join(root, 'target/debug/conformance');

function usage(message) {
  console.error(`zoo: ${message}\nusage: node harness/node/subject/zoo/zoo.mjs [--only NAME[,NAME...]] [--list] [--jobs N]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let only;
let list = false;
let jobs = process.env.ZOO_JOBS ?? '2';
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--only' && i + 1 < args.length) only = args[(i += 1)];
  else if (args[i] === '--list') list = true;
  else if (args[i] === '--jobs' && i + 1 < args.length) jobs = args[(i += 1)];
  else usage(`unknown argument ${JSON.stringify(args[i])}`);
}
if (!/^[1-9][0-9]?$/.test(String(jobs))) usage(`--jobs must be 1..99, not ${JSON.stringify(jobs)}`);
jobs = Number(jobs);

const { bugs } = JSON.parse(fs.readFileSync(path.join(here, 'bugs.json'), 'utf8'));
const names = new Set();
for (const bug of bugs) {
  for (const key of ['name', 'file', 'find', 'replace', 'requirements', 'sections']) {
    if (bug[key] === undefined) usage(`bug ${JSON.stringify(bug.name)} lacks ${key}`);
  }
  if (names.has(bug.name)) usage(`bug ${bug.name} is listed twice`);
  names.add(bug.name);
}
if (list) {
  for (const bug of bugs) console.log(`${bug.name}\t${bug.requirements.join(',')}\t${bug.sections.join(' ')}`);
  process.exit(0);
}
const wanted = only === undefined ? undefined : only.split(',');
for (const name of wanted ?? []) {
  if (!names.has(name)) usage(`no bug named ${JSON.stringify(name)} (--list names them)`);
}
const chosen = wanted === undefined ? bugs : bugs.filter((bug) => wanted.includes(bug.name));
if (!fs.existsSync(conformance)) {
  execFileSync('cargo', ['build', '-q', '-p', 'harness', '--bin', 'conformance'], { cwd: root, stdio: 'inherit' });
}

/**
 * A copy of the subject's sources in a fresh folder inside the subject, so that its imports
 * resolve as the subject's own do (ajv from the subject's node_modules, react from the Node
 * adapter's).
 */
function copySubject(dir) {
  fs.mkdirSync(dir, { recursive: true });
  for (const name of ['index.mjs', 'react.mjs', 'package.json', 'lib']) {
    fs.cpSync(path.join(subject, name), path.join(dir, name), { recursive: true });
  }
}

/** The edits of a bug: its own, then those of `also` (one edit or a list). */
function edits(bug) {
  const also = bug.also === undefined ? [] : [bug.also].flat();
  return [{ find: bug.find, replace: bug.replace }, ...also];
}

/**
 * Replaces `find` by `replace` in the edit's `file` (default the bug's) of the copy; the text
 * must occur exactly once.
 */
function plant(dir, bug, { find, replace, file: own }) {
  const name = own ?? bug.file;
  const file = path.join(dir, name);
  const text = fs.readFileSync(file, 'utf8');
  const count = text.split(find).length - 1;
  if (count !== 1) {
    console.error(`zoo: bug ${bug.name}: its find text occurs ${count} times in ${name}, not once: the subject changed; update bugs.json`);
    process.exit(2);
  }
  fs.writeFileSync(file, text.replace(find, () => replace));
}

/** Runs the sections through the Node adapter against the copy in `dir`; resolves to the report. */
function run(dir, sections, label) {
  const report = path.join(dir, 'report.json');
  const filters = sections.flatMap((prefix) => ['--filter', prefix]);
  return new Promise((resolve) => {
    const child = spawn(conformance, [
      'run', '--quiet', ...filters, '--report', report, '--allow-nothing-judged',
      '--adapter', '--', 'node', path.join(root, 'harness/node/adapter.mjs'),
      '--react', path.join(dir, 'react.mjs'), path.join(dir, 'index.mjs'),
    ], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('close', (status) => {
      if (!fs.existsSync(report)) {
        console.error(`zoo: ${label}: the run wrote no report (exit ${status}):\n${stderr}`);
        process.exit(2);
      }
      resolve(JSON.parse(fs.readFileSync(report, 'utf8')));
    });
  });
}

/** Plants one bug in a fresh copy and runs its sections: the line to print and whether it was caught. */
async function tryBug(scratch, bug) {
  const dir = path.join(scratch, bug.name);
  copySubject(dir);
  for (const edit of edits(bug)) plant(dir, bug, edit);
  const report = await run(dir, bug.sections, bug.name);
  const caught = report.cases.filter((c) => c.verdict === 'fail').map((c) => c.id);
  const ok = caught.length > 0;
  const shown = caught.slice(0, 3).join(' ') + (caught.length > 3 ? ` (+${caught.length - 3})` : '');
  return {
    ok,
    line: `${ok ? 'ok' : 'NOT OK'}  ${bug.name} (${bug.requirements.join(', ')}): ${caught.length} of ${report.cases.length} cases fail${ok ? `: ${shown}` : ': NOT CAUGHT'}`,
  };
}

// Every edit is checked against the subject before anything runs, so one stale `find` is reported
// with all the others, not after minutes of runs.
const stale = [];
for (const bug of chosen) {
  const texts = new Map();
  for (const { find, replace, file: own } of edits(bug)) {
    const name = own ?? bug.file;
    if (!texts.has(name)) texts.set(name, fs.readFileSync(path.join(subject, name), 'utf8'));
    const count = texts.get(name).split(find).length - 1;
    if (count !== 1) stale.push(`${bug.name}: a find text occurs ${count} times in ${name}, not once`);
    else texts.set(name, texts.get(name).replace(find, () => replace));
  }
}
if (stale.length > 0) {
  console.error(`zoo: the subject changed under these bugs; update bugs.json:\n  ${stale.join('\n  ')}`);
  process.exit(2);
}

// Inside the subject (see copySubject); ignored by git, removed at the end.
fs.mkdirSync(path.join(here, '.work'), { recursive: true });
const scratch = fs.mkdtempSync(path.join(here, '.work', 'run-'));
let failed = 0;
try {
  const all = [...new Set(chosen.flatMap((bug) => bug.sections))];
  const baselineDir = path.join(scratch, 'baseline');
  copySubject(baselineDir);
  const baseline = await run(baselineDir, all, 'baseline');
  const notPassing = baseline.cases.filter((c) => c.verdict !== 'pass' && c.verdict !== 'unsupported');
  if (baseline.cases.length === 0 || notPassing.length > 0) {
    console.log(`NOT OK  baseline: ${notPassing.map((c) => `${c.id} ${c.verdict}`).join(', ') || 'no case ran'}`);
    failed += 1;
  } else {
    console.log(`ok  baseline: ${baseline.cases.length} cases of ${all.length} sections pass unplanted`);
  }
  // A pool of `jobs` workers; results are printed in bugs.json order as soon as they are known.
  const results = new Array(chosen.length);
  let next = 0;
  let printed = 0;
  const flush = () => {
    while (printed < chosen.length && results[printed] !== undefined) {
      console.log(results[printed].line);
      if (!results[printed].ok) failed += 1;
      printed += 1;
    }
  };
  const worker = async () => {
    while (next < chosen.length) {
      const index = next;
      next += 1;
      results[index] = await tryBug(scratch, chosen[index]);
      flush();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, chosen.length) }, worker));
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
console.log(`bug zoo: ${chosen.length - Math.min(failed, chosen.length)} of ${chosen.length} bugs caught${failed > 0 ? `; ${failed} problem(s)` : ''}`);
process.exit(failed === 0 ? 0 : 1);
