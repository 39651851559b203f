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
// whose `find` text does not occur exactly once (the consumer changed under it). The runner itself
// is shared with the RCIP zoo (harness/node/zoo/bug-zoo.mjs); this file keeps what is its own.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { command, copySubject, ensureConformance, readBugs, runSections, runZoo } from '../../zoo/bug-zoo.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const subject = path.resolve(here, '..');

const { usage, options } = command({
  prefix: 'rui zoo',
  synopsis: 'node harness/node/rui-subject/zoo/zoo.mjs [--only NAME] [--list] [--all-sections]',
  values: ['--only'],
  flags: ['--list', '--all-sections'],
});
const only = options['--only'];
const allSections = options['--all-sections'] === true;

const bugs = readBugs(here, ['name', 'file', 'find', 'replace', 'requirements', 'sentence', 'sections'], usage, options['--list']);
const chosen = only === undefined ? bugs : bugs.filter((bug) => bug.name === only);
if (chosen.length === 0) usage(`no bug named ${JSON.stringify(only)} (--list names them)`);
if (!fs.existsSync(path.join(subject, 'node_modules', 'ajv'))) {
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: subject, stdio: 'inherit' });
}
ensureConformance();

await runZoo({
  prefix: 'rui zoo',
  what: 'consumer',
  here,
  bugs: chosen,
  // One bug at a time.
  jobs: 1,
  sectionsOf: (bug) => (allSections ? ['rui.'] : bug.sections),
  // The copy sits inside the consumer, so that ajv resolves as its own does.
  copy: (dir) => copySubject(subject, ['index.mjs', 'package.json', 'lib'], dir),
  // The bug's edit, then its `also` (one more edit), both in the bug's file.
  edits: (bug) => [bug, bug.also].filter((edit) => edit !== undefined).map(({ find, replace }) => ({ find, replace })),
  run: (dir, sections, label) => runSections('rui zoo', dir, sections, label),
  baselinePasses: (c) => c.verdict === 'pass',
  unit: 'section prefixes',
  // A case fails a REQUIRED check: verdict fail with a REQUIRED difference.
  catches: (c) => c.verdict === 'fail' && (c.differences ?? []).some((d) => d.strictness === 'REQUIRED'),
  failing: 'cases fail a REQUIRED check',
  summary: 'rui bug zoo',
});
