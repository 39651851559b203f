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
// `find` text does not occur exactly once (the subject changed under it). The runner itself is
// shared with the Rixx UI zoo (harness/node/zoo/bug-zoo.mjs); this file keeps what is its own.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { command, copySubject, ensureConformance, readBugs, runSections, runZoo } from '../../zoo/bug-zoo.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const subject = path.resolve(here, '..');

const { usage, options } = command({
  prefix: 'zoo',
  synopsis: 'node harness/node/subject/zoo/zoo.mjs [--only NAME[,NAME...]] [--list] [--jobs N]',
  values: ['--only', '--jobs'],
  flags: ['--list'],
});
const only = options['--only'];
let jobs = options['--jobs'] ?? process.env.ZOO_JOBS ?? '2';
if (!/^[1-9][0-9]?$/.test(String(jobs))) usage(`--jobs must be 1..99, not ${JSON.stringify(jobs)}`);
jobs = Number(jobs);

const bugs = readBugs(here, ['name', 'file', 'find', 'replace', 'requirements', 'sections'], usage, options['--list']);
const names = new Set(bugs.map((bug) => bug.name));
const wanted = only === undefined ? undefined : only.split(',');
for (const name of wanted ?? []) {
  if (!names.has(name)) usage(`no bug named ${JSON.stringify(name)} (--list names them)`);
}
const chosen = wanted === undefined ? bugs : bugs.filter((bug) => wanted.includes(bug.name));
ensureConformance();

/** The edits of a bug: its own, then those of `also` (one edit or a list). */
function edits(bug) {
  const also = bug.also === undefined ? [] : [bug.also].flat();
  return [{ find: bug.find, replace: bug.replace }, ...also];
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

await runZoo({
  prefix: 'zoo',
  what: 'subject',
  here,
  bugs: chosen,
  jobs,
  sectionsOf: (bug) => bug.sections,
  // The copy sits inside the subject, so that ajv resolves from the subject's node_modules and
  // react from the Node adapter's.
  copy: (dir) => copySubject(subject, ['index.mjs', 'react.mjs', 'package.json', 'lib'], dir),
  edits,
  run: (dir, sections, label) => runSections('zoo', dir, sections, label, {
    runArgs: ['--allow-nothing-judged'],
    adapterArgs: ['--react', path.join(dir, 'react.mjs')],
  }),
  // A case the subject does not support is no failure of the unplanted copy.
  baselinePasses: (c) => c.verdict === 'pass' || c.verdict === 'unsupported',
  unit: 'sections',
  // A `fail` verdict: a REQUIRED check, or an IMPL-DEFINED one outside every alternative.
  catches: (c) => c.verdict === 'fail',
  failing: 'cases fail',
  summary: 'bug zoo',
});
