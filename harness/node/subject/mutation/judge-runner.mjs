// A StrykerJS test-runner plugin ("subject-judge", issue 25 section 3): Stryker's own `command`
// runner (an exit code judges the mutant: 0 survived, anything else killed) with two additions the
// built-in runner lacks. It runs only the mutants of one round-robin shard (MUTANTS_JS_SHARD=K/N,
// mutant id mod N == K), answering every other mutant with an `error` "outside shard K/N" that
// summary.mjs leaves out of every figure; and it tells the judge which file the active mutant is in
// (MUTANTS_JS_FILE), so the judge can run the sections most likely to fail first.
//
// The command (commandRunner.command in stryker.config.mjs) runs in the sandbox (the mutated copy
// of the subject), with __STRYKER_ACTIVE_MUTANT__ set to the mutant's id as the command runner does.

import { spawn } from 'node:child_process';
import path from 'node:path';

import { commonTokens, declareClassPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import { DryRunStatus, MutantRunStatus, TestStatus } from '@stryker-mutator/api/test-runner';

/** `K/N` with 0 <= K < N, or undefined for every mutant. */
export function parseShard(text) {
  if (text === undefined || text === '') return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match || Number(match[2]) < 1 || Number(match[1]) >= Number(match[2])) {
    throw new Error(`MUTANTS_JS_SHARD must be K/N with 0 <= K < N, not ${JSON.stringify(text)}`);
  }
  return { k: Number(match[1]), n: Number(match[2]) };
}

/** Whether mutant `id` (Stryker's decimal id) belongs to the shard. */
export function inShard(id, shard) {
  return shard === undefined || Number(id) % shard.n === shard.k;
}

/** The judge running now, if any (its own process group), ended with this process. */
let running;
function endRunning() {
  if (running?.pid) {
    try {
      process.kill(-running.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
process.on('exit', endRunning);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    endRunning();
    process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 })[signal]);
  });
}

class SubjectJudgeRunner {
  static inject = tokens(commonTokens.options);

  constructor(options) {
    this.command = options.commandRunner.command;
    this.shard = parseShard(process.env.MUTANTS_JS_SHARD);
    this.child = undefined;
  }

  capabilities() {
    // Each run is a new process, so a static mutant is as good as any other.
    return { reloadEnvironment: true };
  }

  async init() {}

  async dryRun() {
    const { code, output, ms } = await this.run({});
    const test = { id: 'conformance', name: 'conformance run (unmutated)', timeSpentMs: ms };
    if (code === 0) return { status: DryRunStatus.Complete, tests: [{ ...test, status: TestStatus.Success }] };
    return { status: DryRunStatus.Complete, tests: [{ ...test, status: TestStatus.Failed, failureMessage: output }] };
  }

  async mutantRun({ activeMutant }) {
    if (!inShard(activeMutant.id, this.shard)) {
      return { status: MutantRunStatus.Error, errorMessage: `outside shard ${this.shard.k}/${this.shard.n}` };
    }
    const { code, output } = await this.run({
      __STRYKER_ACTIVE_MUTANT__: activeMutant.id,
      MUTANTS_JS_FILE: path.basename(activeMutant.fileName),
      MUTANTS_JS_PLACE: `${activeMutant.fileName}:${activeMutant.location.start.line + 1}:${activeMutant.location.start.column + 1}`,
      MUTANTS_JS_MUTATOR: activeMutant.mutatorName,
    });
    if (code === 0) return { status: MutantRunStatus.Survived, nrOfTests: 1 };
    return { status: MutantRunStatus.Killed, killedBy: ['conformance'], failureMessage: output };
  }

  /** Runs the command in the sandbox (this process's working directory) with `extra` in its environment. */
  run(extra) {
    const started = Date.now();
    return new Promise((resolve) => {
      const output = [];
      const child = spawn(this.command, { shell: true, detached: true, env: { ...process.env, ...extra } });
      this.child = child;
      running = child;
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
      const done = (code) => {
        this.child = undefined;
        running = undefined;
        resolve({ code, output: Buffer.concat(output).toString('utf8').slice(-4000), ms: Date.now() - started });
      };
      child.on('error', (error) => {
        output.push(Buffer.from(String(error)));
        done(-1);
      });
      child.on('close', (code, signal) => done(code ?? (signal ? -1 : 0)));
    });
  }

  /** A run cut by Stryker's timeout: end the command's whole process group (conformance, node). */
  async dispose() {
    endRunning();
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'subject-judge', SubjectJudgeRunner)];
