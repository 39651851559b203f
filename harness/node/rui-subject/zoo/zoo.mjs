#!/usr/bin/env node
// The Rixx UI bug zoo (issue 30 section 3): every bug of bugs.json, planted alone in a fresh copy of
// the JavaScript Rixx UI consumer (harness/node/rui-subject), must fail at least one REQUIRED check
// of the sections it names, run through the Node adapter with the project's own CLI; the unplanted
// copy must pass every case of all those sections. A bug no REQUIRED check catches means a vector
// is missing (write it from the sentence the bug breaks) or the texts leave the behaviour open (then
// the bug leaves the zoo, with the reason).
//
//   node harness/node/rui-subject/zoo/zoo.mjs [--only NAME] [--list] [--all-sections]
//
// --all-sections runs every rui case for each bug (to find which cases catch it) instead of its
// sections. CONFORMANCE names the conformance binary (default target/debug/conformance). Exit
// status: 0 when every bug is caught and the baseline passes, 1 otherwise, 2 on bad usage or a bug
// whose `find` text does not occur exactly once (the consumer changed under it).

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const subject = path.resolve(here, '..');
const root = path.resolve(subject, '../../..');
const conformance = process.env.CONFORMANCE ?? path.join(root, 'target/debug/conformance');

function usage(message) {
  console.error(`rui zoo: ${message}\nusage: node harness/node/rui-subject/zoo/zoo.mjs [--only NAME] [--list] [--all-sections]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let only;
let list = false;
let allSections = false;
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--only' && i + 1 < args.length) only = args[(i += 1)];
  else if (args[i] === '--list') list = true;
  else if (args[i] === '--all-sections') allSections = true;
  else usage(`unknown argument ${JSON.stringify(args[i])}`);
}

const { bugs } = JSON.parse(fs.readFileSync(path.join(here, 'bugs.json'), 'utf8'));
const names = new Set();
for (const bug of bugs) {
  for (const key of ['name', 'file', 'find', 'replace', 'requirements', 'sentence', 'sections']) {
    if (bug[key] === undefined) usage(`bug ${JSON.stringify(bug.name)} lacks ${key}`);
  }
  if (names.has(bug.name)) usage(`bug ${bug.name} is listed twice`);
  names.add(bug.name);
}
if (list) {
  for (const bug of bugs) console.log(`${bug.name}\t${bug.requirements.join(',')}\t${bug.sections.join(' ')}`);
  process.exit(0);
}
const chosen = only === undefined ? bugs : bugs.filter((bug) => bug.name === only);
if (chosen.length === 0) usage(`no bug named ${JSON.stringify(only)} (--list names them)`);
if (!fs.existsSync(path.join(subject, 'node_modules', 'ajv'))) {
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: subject, stdio: 'inherit' });
}
if (!fs.existsSync(conformance)) {
  execFileSync('cargo', ['build', '-q', '-p', 'harness', '--bin', 'conformance'], { cwd: root, stdio: 'inherit' });
}

/** A copy of the consumer's sources inside the consumer, so that ajv resolves as its own does. */
function copySubject(dir) {
  fs.mkdirSync(dir, { recursive: true });
  for (const name of ['index.mjs', 'package.json', 'lib']) {
    fs.cpSync(path.join(subject, name), path.join(dir, name), { recursive: true });
  }
}

/** Replaces `find` by `replace` in `file` of the copy; the text must occur exactly once. */
function plant(dir, bug, { find, replace }) {
  const file = path.join(dir, bug.file);
  const text = fs.readFileSync(file, 'utf8');
  const count = text.split(find).length - 1;
  if (count !== 1) {
    console.error(`rui zoo: bug ${bug.name}: its find text occurs ${count} times in ${bug.file}, not once: the consumer changed; update bugs.json`);
    process.exit(2);
  }
  fs.writeFileSync(file, text.replace(find, () => replace));
}

/** Runs the sections through the Node adapter against the copy in `dir`; returns the report. */
function run(dir, sections, label) {
  const report = path.join(dir, 'report.json');
  const filters = sections.flatMap((prefix) => ['--filter', prefix]);
  const result = spawnSync(conformance, [
    'run', '--quiet', ...filters, '--report', report,
    '--adapter', '--', 'node', path.join(root, 'harness/node/adapter.mjs'), path.join(dir, 'index.mjs'),
  ], { cwd: root, encoding: 'utf8' });
  if (!fs.existsSync(report)) {
    console.error(`rui zoo: ${label}: the run wrote no report (exit ${result.status}):\n${result.stderr}`);
    process.exit(2);
  }
  return JSON.parse(fs.readFileSync(report, 'utf8'));
}

/** A case fails a REQUIRED check: verdict fail with a REQUIRED difference. */
function failsRequired(c) {
  return c.verdict === 'fail' && (c.differences ?? []).some((d) => d.strictness === 'REQUIRED');
}

fs.mkdirSync(path.join(here, '.work'), { recursive: true });
const scratch = fs.mkdtempSync(path.join(here, '.work', 'run-'));
let failed = 0;
try {
  const sectionsOf = (bug) => (allSections ? ['rui.'] : bug.sections);
  const all = [...new Set(chosen.flatMap(sectionsOf))];
  const baselineDir = path.join(scratch, 'baseline');
  copySubject(baselineDir);
  const baseline = run(baselineDir, all, 'baseline');
  const notPassing = baseline.cases.filter((c) => c.verdict !== 'pass');
  if (baseline.cases.length === 0 || notPassing.length > 0) {
    console.log(`NOT OK  baseline: ${notPassing.map((c) => `${c.id} ${c.verdict}`).join(', ') || 'no case ran'}`);
    failed += 1;
  } else {
    console.log(`ok  baseline: ${baseline.cases.length} cases of ${all.length} section prefixes pass unplanted`);
  }
  for (const bug of chosen) {
    const dir = path.join(scratch, bug.name);
    copySubject(dir);
    plant(dir, bug, bug);
    if (bug.also !== undefined) plant(dir, bug, bug.also);
    const report = run(dir, sectionsOf(bug), bug.name);
    const caught = report.cases.filter(failsRequired).map((c) => c.id);
    const ok = caught.length > 0;
    if (!ok) failed += 1;
    const shown = caught.slice(0, 3).join(' ') + (caught.length > 3 ? ` (+${caught.length - 3})` : '');
    console.log(`${ok ? 'ok' : 'NOT OK'}  ${bug.name} (${bug.requirements.join(', ')}): ${caught.length} of ${report.cases.length} cases fail a REQUIRED check${ok ? `: ${shown}` : ': NOT CAUGHT'}`);
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
console.log(`rui bug zoo: ${chosen.length - Math.min(failed, chosen.length)} of ${chosen.length} bugs caught${failed > 0 ? `; ${failed} problem(s)` : ''}`);
process.exit(failed === 0 ? 0 : 1);
