#!/usr/bin/env node
// The figures of one StrykerJS run of the JavaScript subject (issue 25 section 3), as
// harness/node/subject/MUTATION.md reports them: mutants, killed, survived, timed out, errors,
// equivalent, raw score = (killed + timeout) / viable and standard score =
// (killed + timeout) / (viable - equivalent), per file and in all; then every survivor not shown
// equivalent, with the place, the mutator, the replacement and what the full run saw of it.
//
//   node harness/node/subject/mutation/summary.mjs DIR [--shard K/N]
//
// DIR holds the run's mutation.json (Stryker's JSON report), judge.jsonl and wall.txt
// (scripts/mutants-js.sh writes them). Mutants outside the shard (answered "outside shard" by
// judge-runner.mjs) count for nothing. equivalents.json (beside this file) lists the survivors
// shown equivalent under the texts, each with its reason, keyed by file, mutator, the original
// text and the replacement (not by line or id, which move when the subject changes).
// Exit status: 0 when every survivor is listed as equivalent, 1 otherwise, 2 on bad usage.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

const args = process.argv.slice(2);
if (args.length < 1 || args[0].startsWith('-')) {
  console.error('usage: node summary.mjs DIR [--shard K/N]');
  process.exit(2);
}
const dir = args[0];
const shard = args[1] === '--shard' ? args[2] : undefined;

const report = JSON.parse(fs.readFileSync(path.join(dir, 'mutation.json'), 'utf8'));
const judged = new Map();
if (fs.existsSync(path.join(dir, 'judge.jsonl'))) {
  for (const line of fs.readFileSync(path.join(dir, 'judge.jsonl'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line);
    if (entry.mutant !== null) judged.set(entry.mutant, entry);
  }
}
const wall = fs.existsSync(path.join(dir, 'wall.txt')) ? fs.readFileSync(path.join(dir, 'wall.txt'), 'utf8').trim() : '?';
const { equivalents } = JSON.parse(fs.readFileSync(path.join(here, 'equivalents.json'), 'utf8'));

/** The key of a mutant that survives edits elsewhere in its file: file, mutator, original text, replacement. */
function keyOf(file, mutator, original, replacement) {
  return JSON.stringify([file, mutator, original, replacement]);
}

/** The source text a mutant replaces (Stryker's locations: lines from 1, columns from 1). */
function originalText(source, location) {
  const lines = source.split('\n');
  const { start, end } = location;
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  const parts = [lines[start.line - 1].slice(start.column - 1)];
  for (let l = start.line; l < end.line - 1; l += 1) parts.push(lines[l]);
  parts.push(lines[end.line - 1].slice(0, end.column - 1));
  return parts.join('\n');
}

const equivalentKeys = new Map();
for (const entry of equivalents) {
  for (const field of ['file', 'mutator', 'original', 'replacement', 'reason']) {
    if (typeof entry[field] !== 'string') {
      console.error(`equivalents.json: an entry lacks ${field}: ${JSON.stringify(entry)}`);
      process.exit(2);
    }
  }
  equivalentKeys.set(keyOf(entry.file, entry.mutator, entry.original, entry.replacement), entry);
}

const KILLED = new Set(['Killed', 'Timeout']);
const rows = [];
const total = { file: 'all', mutants: 0, killed: 0, timeout: 0, survived: 0, errors: 0, viable: 0, equivalent: 0 };
const survivors = [];
for (const [file, { source, mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const row = { file, mutants: 0, killed: 0, timeout: 0, survived: 0, errors: 0, viable: 0, equivalent: 0 };
  for (const mutant of mutants) {
    if (mutant.status === 'RuntimeError' && /^outside shard/.test(mutant.statusReason ?? '')) continue;
    if (mutant.status === 'Ignored') continue;
    row.mutants += 1;
    if (mutant.status === 'Killed') row.killed += 1;
    else if (mutant.status === 'Timeout') row.timeout += 1;
    else if (mutant.status === 'Survived' || mutant.status === 'NoCoverage') row.survived += 1;
    else row.errors += 1;
    if (KILLED.has(mutant.status) || mutant.status === 'Survived' || mutant.status === 'NoCoverage') row.viable += 1;
    if (mutant.status === 'Survived' || mutant.status === 'NoCoverage') {
      const original = originalText(source, mutant.location);
      const key = keyOf(file, mutant.mutatorName, original, mutant.replacement ?? '');
      if (equivalentKeys.has(key)) {
        row.equivalent += 1;
      } else {
        const full = judged.get(mutant.id)?.stages?.find((s) => s.stage === 'full');
        survivors.push({ id: mutant.id, file, line: mutant.location.start.line, column: mutant.location.start.column, mutator: mutant.mutatorName, original, replacement: mutant.replacement, counts: full?.counts });
      }
    }
  }
  for (const field of Object.keys(total)) if (field !== 'file') total[field] += row[field];
  rows.push(row);
}
rows.push(total);

const percent = (n, d) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);
console.log(`run: ${dir}${shard ? ` (shard ${shard})` : ''}; wall time ${wall} s`);
console.log('| file | mutants | killed | timeout | survived | errors | viable | equivalent | raw | standard |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  const detected = r.killed + r.timeout;
  console.log(`| ${r.file} | ${r.mutants} | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.errors} | ${r.viable} | ${r.equivalent} | ${percent(detected, r.viable)} | ${percent(detected, r.viable - r.equivalent)} |`);
}
if (survivors.length > 0) {
  console.log(`\nsurvivors not shown equivalent (${survivors.length}):`);
  for (const s of survivors) {
    const seen = s.counts ? ` [full run: ${Object.entries(s.counts).map(([k, v]) => `${k} ${v}`).join(', ')}]` : '';
    console.log(`- #${s.id} ${s.file}:${s.line}:${s.column} ${s.mutator}: ${JSON.stringify(s.original).slice(0, 120)} -> ${JSON.stringify(s.replacement).slice(0, 120)}${seen}`);
  }
}
process.exit(survivors.length > 0 ? 1 : 0);
