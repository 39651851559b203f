// StrykerJS configuration of the JavaScript subject's mutation run (issue 25 section 3), read by
// scripts/mutants-js.sh, which runs Stryker with harness/node/subject as its working directory
// (the project Stryker copies into its sandbox). Every mutant is judged by judge.mjs (the
// conformance run through the Node adapter) through judge-runner.mjs (the command runner's exit
// code rule, plus round-robin shards). One mutant at a time: the machine is shared.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.env.MUTANTS_JS_OUT ?? path.resolve(here, '../../../../target/mutants-js/all');

export default {
  $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
  packageManager: 'npm',
  mutate: ['index.mjs', 'react.mjs', 'lib/*.mjs'],
  // Only the subject's sources reach the sandbox (its node_modules is linked, not copied).
  ignorePatterns: ['mutation', 'zoo', 'certify.sh', 'README.md', 'MUTATION.md', 'package-lock.json'],
  plugins: [path.join(here, 'judge-runner.mjs')],
  testRunner: 'subject-judge',
  commandRunner: { command: `node ${JSON.stringify(path.join(here, 'judge.mjs'))}` },
  coverageAnalysis: 'off',
  checkers: [],
  concurrency: 1,
  // The full run takes 7 to 35 s on the loaded machine; a mutant that hangs is cut after this
  // (plus twice the dry run), though conformance's own step timeouts usually end it first.
  timeoutMS: 60000,
  timeoutFactor: 2,
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  jsonReporter: { fileName: path.join(out, 'mutation.json') },
  htmlReporter: { fileName: path.join(out, 'mutation.html') },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false, reportScoreTable: true },
  incremental: false,
  logLevel: 'info',
  fileLogLevel: 'off',
};
