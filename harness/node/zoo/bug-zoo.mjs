// What the two bug zoos share (the RCIP one, harness/node/subject/zoo/zoo.mjs, and the Rixx UI
// one, harness/node/rui-subject/zoo/zoo.mjs): reading their command line and their bugs.json,
// copying the subject into a scratch folder, planting a bug's edits, running sections of the
// vectors through the Node adapter with the project's CLI, and the loop that runs the unplanted
// baseline and then each bug and prints one line a bug (in bugs.json order) and the summary. Each
// zoo keeps what differs: its options, which bugs `--only` picks, what it copies, how it runs the
// adapter, and what counts as caught.
//
// CONFORMANCE names the conformance binary (default target/debug/conformance, built when missing).
// A usage error, a bug whose `find` text does not occur exactly once, or a run that writes no
// report exits 2.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const conformance = process.env.CONFORMANCE ?? path.join(root, 'target/debug/conformance');

/**
 * The command line of a zoo: `prefix` starts its messages, `synopsis` is its usage line; `values`
 * are the options that take the next argument, `flags` those that do not. Returns `usage` (prints
 * a message and the usage line, exits 2) and the options given, by name (the last one of a name
 * wins); any other argument is a usage error.
 */
export function command({ prefix, synopsis, values = [], flags = [] }) {
  const usage = (message) => {
    console.error(`${prefix}: ${message}\nusage: ${synopsis}`);
    process.exit(2);
  };
  const args = process.argv.slice(2);
  const options = {};
  for (let i = 0; i < args.length; i += 1) {
    if (values.includes(args[i]) && i + 1 < args.length) options[args[i]] = args[(i += 1)];
    else if (flags.includes(args[i])) options[args[i]] = true;
    else usage(`unknown argument ${JSON.stringify(args[i])}`);
  }
  return { usage, options };
}

/**
 * The bugs of `here`/bugs.json, each with every member of `keys` and a name of its own (a usage
 * error otherwise). With `list`, prints one line a bug (name, requirements, sections) and exits 0.
 */
export function readBugs(here, keys, usage, list) {
  const { bugs } = JSON.parse(fs.readFileSync(path.join(here, 'bugs.json'), 'utf8'));
  const names = new Set();
  for (const bug of bugs) {
    for (const key of keys) {
      if (bug[key] === undefined) usage(`bug ${JSON.stringify(bug.name)} lacks ${key}`);
    }
    if (names.has(bug.name)) usage(`bug ${bug.name} is listed twice`);
    names.add(bug.name);
  }
  if (list) {
    for (const bug of bugs) console.log(`${bug.name}\t${bug.requirements.join(',')}\t${bug.sections.join(' ')}`);
    process.exit(0);
  }
  return bugs;
}

/** Builds the conformance binary when it is not there. */
export function ensureConformance() {
  if (!fs.existsSync(conformance)) {
    execFileSync('cargo', ['build', '-q', '-p', 'harness', '--bin', 'conformance'], { cwd: root, stdio: 'inherit' });
  }
}

/**
 * Copies `names` (files and folders) of the subject folder `subject` into `dir`, a folder inside
 * the subject, so that the copy's imports resolve as the subject's own do.
 */
export function copySubject(subject, names, dir) {
  fs.mkdirSync(dir, { recursive: true });
  for (const name of names) {
    fs.cpSync(path.join(subject, name), path.join(dir, name), { recursive: true });
  }
}

/**
 * Replaces `find` by `replace` in the edit's `file` (default the bug's) of the copy in `dir`; the
 * text must occur exactly once, or the `subject` (the word for what the zoo plants in) changed.
 */
export function plant(prefix, subject, dir, bug, { find, replace, file: own }) {
  const name = own ?? bug.file;
  const file = path.join(dir, name);
  const text = fs.readFileSync(file, 'utf8');
  const count = text.split(find).length - 1;
  if (count !== 1) {
    console.error(`${prefix}: bug ${bug.name}: its find text occurs ${count} times in ${name}, not once: the ${subject} changed; update bugs.json`);
    process.exit(2);
  }
  fs.writeFileSync(file, text.replace(find, () => replace));
}

/**
 * Runs `sections` (prefixes) through the Node adapter against `dir`/index.mjs, with `runArgs`
 * after the report and `adapterArgs` before the module; resolves to the report.
 */
export function runSections(prefix, dir, sections, label, { runArgs = [], adapterArgs = [] } = {}) {
  const report = path.join(dir, 'report.json');
  const filters = sections.flatMap((section) => ['--filter', section]);
  return new Promise((resolve) => {
    const child = spawn(conformance, [
      'run', '--quiet', ...filters, '--report', report, ...runArgs,
      '--adapter', '--', 'node', path.join(root, 'harness/node/adapter.mjs'), ...adapterArgs, path.join(dir, 'index.mjs'),
    ], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('close', (status) => {
      if (!fs.existsSync(report)) {
        console.error(`${prefix}: ${label}: the run wrote no report (exit ${status}):\n${stderr}`);
        process.exit(2);
      }
      resolve(JSON.parse(fs.readFileSync(report, 'utf8')));
    });
  });
}

/**
 * Runs the zoo in a scratch folder under `here`/.work (ignored by git, removed at the end): the
 * unplanted copy must give `baselinePasses` for every case of all the bugs' sections (`unit`
 * names what those are in its line); then each bug, `jobs` at a time, each in its own copy with
 * its `edits` planted, is caught when a case of its sections `catches` (`failing` says what in
 * its line). Prints the lines in `bugs` order as soon as they are known, then the `summary` line,
 * and exits 0 when every bug is caught and the baseline passes, 1 otherwise.
 * `copy(dir)` copies the subject; `run(dir, sections, label)` resolves to a report; `prefix` and
 * `what` are those of `plant`.
 */
export async function runZoo({ prefix, what, here, bugs, jobs, sectionsOf, copy, edits, run, baselinePasses, unit, catches, failing, summary }) {
  /** Plants one bug in a fresh copy and runs its sections: the line to print and whether it was caught. */
  const tryBug = async (scratch, bug) => {
    const dir = path.join(scratch, bug.name);
    copy(dir);
    for (const edit of edits(bug)) plant(prefix, what, dir, bug, edit);
    const report = await run(dir, sectionsOf(bug), bug.name);
    const caught = report.cases.filter(catches).map((c) => c.id);
    const ok = caught.length > 0;
    const shown = caught.slice(0, 3).join(' ') + (caught.length > 3 ? ` (+${caught.length - 3})` : '');
    return {
      ok,
      line: `${ok ? 'ok' : 'NOT OK'}  ${bug.name} (${bug.requirements.join(', ')}): ${caught.length} of ${report.cases.length} ${failing}${ok ? `: ${shown}` : ': NOT CAUGHT'}`,
    };
  };

  fs.mkdirSync(path.join(here, '.work'), { recursive: true });
  const scratch = fs.mkdtempSync(path.join(here, '.work', 'run-'));
  let failed = 0;
  try {
    const all = [...new Set(bugs.flatMap(sectionsOf))];
    const baselineDir = path.join(scratch, 'baseline');
    copy(baselineDir);
    const baseline = await run(baselineDir, all, 'baseline');
    const notPassing = baseline.cases.filter((c) => !baselinePasses(c));
    if (baseline.cases.length === 0 || notPassing.length > 0) {
      console.log(`NOT OK  baseline: ${notPassing.map((c) => `${c.id} ${c.verdict}`).join(', ') || 'no case ran'}`);
      failed += 1;
    } else {
      console.log(`ok  baseline: ${baseline.cases.length} cases of ${all.length} ${unit} pass unplanted`);
    }
    // A pool of `jobs` workers; results are printed in bugs.json order as soon as they are known.
    const results = new Array(bugs.length);
    let next = 0;
    let printed = 0;
    const flush = () => {
      while (printed < bugs.length && results[printed] !== undefined) {
        console.log(results[printed].line);
        if (!results[printed].ok) failed += 1;
        printed += 1;
      }
    };
    const worker = async () => {
      while (next < bugs.length) {
        const index = next;
        next += 1;
        results[index] = await tryBug(scratch, bugs[index]);
        flush();
      }
    };
    await Promise.all(Array.from({ length: Math.min(jobs, bugs.length) }, worker));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`${summary}: ${bugs.length - Math.min(failed, bugs.length)} of ${bugs.length} bugs caught${failed > 0 ? `; ${failed} problem(s)` : ''}`);
  process.exit(failed === 0 ? 0 : 1);
}
