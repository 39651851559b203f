#!/usr/bin/env node
// The figures of one StrykerJS run of the JavaScript subject (issue 25 section 3), as
// harness/node/subject/MUTATION.md reports them, per file and in all: mutants, killed (by the run),
// timed out, survived, errors, viable, then the survivors by their triage class (triage.json):
//
//   E  killed by a vector written since from its sentence (judged again: it fails the mutant)
//   R  seen by the run only as `non-strict`: a RECOMMENDED case fails, no REQUIRED one
//   U  a behaviour the texts decide that the vector vocabulary cannot reach (a survivor)
//   M, Q, H, B  equivalent: a message no text names, no change of behaviour, a behaviour the texts
//      leave open, a swap between admissible readings
//   D  dead code, since removed (leaves the denominator)
//
// raw = (killed + timeout + E) / (viable - D); standard = (killed + timeout + E) /
// (viable - D - equivalent), with R counted as survivors; `standard+R` counts R as kills (a
// RECOMMENDED case the subject declares fails, so its certification line changes), as
// reference/MUTATION.md counts a non-strict trial. Untriaged survivors are listed.
//
//   node harness/node/subject/mutation/summary.mjs DIR [--shard K/N]
//
// DIR holds the run's mutation.json (Stryker's JSON report), judge.jsonl and wall.txt
// (scripts/mutants-js.sh writes them). Mutants outside the shard (answered "outside shard" by
// judge-runner.mjs) count for nothing. A triage entry is keyed by file, mutator, the original text,
// the replacement and the text of its source line (not by line number or id, which move when the
// subject changes).
// Exit status: 0 when every survivor is triaged, 1 otherwise, 2 on bad usage.

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
const { triage } = JSON.parse(fs.readFileSync(path.join(here, 'triage.json'), 'utf8'));
const CLASSES = ['E', 'R', 'U', 'M', 'Q', 'H', 'B', 'D'];

/**
 * The key of a mutant that survives edits elsewhere in its file: file, mutator, original text,
 * replacement, and the whole source line it starts on (trimmed), since the same small change can
 * occur on several lines.
 */
function keyOf(file, mutator, original, replacement, line) {
  return JSON.stringify([file, mutator, original, replacement, line]);
}

function lineText(source, location) {
  return source.split('\n')[location.start.line - 1].trim();
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

const triaged = new Map();
for (const entry of triage) {
  for (const field of ['file', 'mutator', 'original', 'replacement', 'context', 'class', 'reason']) {
    if (typeof entry[field] !== 'string') {
      console.error(`triage.json: an entry lacks ${field}: ${JSON.stringify(entry)}`);
      process.exit(2);
    }
  }
  if (!CLASSES.includes(entry.class)) {
    console.error(`triage.json: unknown class ${entry.class}`);
    process.exit(2);
  }
  triaged.set(keyOf(entry.file, entry.mutator, entry.original, entry.replacement, entry.context), entry);
}

const KILLED = new Set(['Killed', 'Timeout']);
const rows = [];
const blank = () => ({ mutants: 0, killed: 0, timeout: 0, survived: 0, errors: 0, viable: 0, ...Object.fromEntries(CLASSES.map((c) => [c, 0])) });
const total = { file: 'all', ...blank() };
const survivors = [];
for (const [file, { source, mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const row = { file, ...blank() };
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
      const key = keyOf(file, mutant.mutatorName, original, mutant.replacement ?? '', lineText(source, mutant.location));
      if (triaged.has(key)) {
        row[triaged.get(key).class] += 1;
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
console.log('| file | mutants | killed | timeout | survived | errors | viable | E | R | U | M | Q | H | B | D | untriaged | raw | standard | standard+R |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  const detected = r.killed + r.timeout + r.E;
  const viable = r.viable - r.D;
  const equivalent = r.M + r.Q + r.H + r.B;
  const untriaged = r.survived - CLASSES.reduce((sum, c) => sum + r[c], 0);
  console.log(`| ${r.file} | ${r.mutants} | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.errors} | ${r.viable} | ${CLASSES.map((c) => r[c]).join(' | ')} | ${untriaged} | ${percent(detected, viable)} | ${percent(detected, viable - equivalent)} | ${percent(detected + r.R, viable - equivalent)} |`);
}
if (survivors.length > 0) {
  console.log(`\nsurvivors not shown equivalent (${survivors.length}):`);
  for (const s of survivors) {
    const seen = s.counts ? ` [full run: ${Object.entries(s.counts).map(([k, v]) => `${k} ${v}`).join(', ')}]` : '';
    console.log(`- #${s.id} ${s.file}:${s.line}:${s.column} ${s.mutator}: ${JSON.stringify(s.original).slice(0, 120)} -> ${JSON.stringify(s.replacement).slice(0, 120)}${seen}`);
  }
}
process.exit(survivors.length > 0 ? 1 : 0);
