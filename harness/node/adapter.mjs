#!/usr/bin/env node
// Driver-protocol adapter (rcip-rui-driver/1, harness/driver/README.md) for JavaScript
// implementations of the RCIP 2.x API (CLARIFICATIONS section A).
//
//   node harness/node/adapter.mjs [--name NAME] [--version VERSION] [--react MODULE] <module>
//
// The `react` profile (vectors/README.md "React host") is declared when the module, or the React
// entry that --react names, exports the A08 surface; its cases render with React in jsdom
// (lib/react-env.mjs, lib/react.mjs), each step inside React's act.
//
// Reads one JSON request per line on stdin and writes exactly one JSON response line per request
// on stdout (the answers to requests already read go out together: lib/stdio.mjs); everything
// else (its own diagnostics, and anything the implementation prints) goes to stderr. Its own
// CommonJS dependencies load from a code cache (lib/code-cache.mjs). Time is virtual:
// @sinonjs/fake-timers fakes Date and the timer functions before the implementation is loaded, the
// clock restarts at 0 for every case, and moves only with `clock` steps. Between steps the adapter
// lets every pending promise reaction run (real setImmediate rounds until nothing new happens), as
// vectors/README.md asks.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';
import FakeTimers from '@sinonjs/fake-timers';

import { AdapterError } from './lib/values.mjs';
import { RcipCase, describeError, unsupported } from './lib/rcip.mjs';
import { REACT_SURFACE, missingReactSurface } from './lib/react.mjs';
import { installDom, loadReactEnvironment } from './lib/react-env.mjs';
import { RuiCase, ruiSurface } from './lib/rui.mjs';
import { Answers, RequestLines } from './lib/stdio.mjs';
import { installCodeCache } from './lib/code-cache.mjs';

const DRIVER_PROTOCOL = 'rcip-rui-driver/1';

/** A settle loop stops after this many macrotask rounds in a row in which nothing happened. */
const QUIET_ROUNDS = 16;
/** ... and in any case after this many rounds (an implementation that never goes quiet). */
const MAX_ROUNDS = 200;

// stdout carries responses only (written to its file descriptor by `answers`): whatever else tries
// to write there goes to stderr.
process.stdout.write = (...args) => process.stderr.write(...args);
for (const name of ['log', 'info', 'debug']) console[name] = (...args) => console.error(...args);

function log(message) {
  process.stderr.write(`[node-adapter] ${message}\n`);
}

/**
 * The responses, held while further requests are already read (lib/stdio.mjs), with the real
 * timers (taken before fake-timers replaces them). Whatever is held is written when the process
 * exits however it exits (`bye`, the end of input, a fatal error, the implementation calling
 * process.exit): nothing answered is lost.
 */
let stdoutBroken = false;
const answers = new Answers(1, { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout }, (failure) => {
  if (!stdoutBroken) log(`cannot write to stdout (answers dropped from now on): ${describeError(failure)}`);
  stdoutBroken = true;
});
process.on('exit', () => {
  if (!stdoutBroken) answers.flush();
});
// jsdom and React load faster from a code cache (after the answers are flushed at exit, it may be
// written).
installCodeCache();

// The implementation's own asynchronous failures must not end the adapter.
process.on('uncaughtException', (error) => log(`uncaught exception (ignored): ${describeError(error)}`));
process.on('unhandledRejection', (error) => log(`unhandled rejection (ignored): ${describeError(error)}`));

function parseArguments(argv) {
  const options = { name: undefined, version: undefined, react: undefined, module: undefined };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--name' || arg === '--version' || arg === '--react') {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      options[arg.slice(2)] = argv[i + 1];
      i += 1;
    } else if (options.module === undefined) {
      options.module = arg;
    } else {
      throw new Error(`unexpected argument ${JSON.stringify(arg)}`);
    }
  }
  if (options.module === undefined) {
    throw new Error('usage: node adapter.mjs [--name NAME] [--version VERSION] [--react MODULE] <module path or specifier>');
  }
  return options;
}

/** A path (relative to the working directory) or a package specifier resolved from there. */
function resolveModule(specifier) {
  if (specifier.startsWith('file:')) return specifier;
  const asPath = path.resolve(process.cwd(), specifier);
  if (/^\.{0,2}[\\/]/.test(specifier) || path.isAbsolute(specifier) || fs.existsSync(asPath)) {
    return pathToFileURL(asPath).href;
  }
  try {
    return pathToFileURL(createRequire(path.join(process.cwd(), 'noop.js')).resolve(specifier)).href;
  } catch {
    return specifier;
  }
}

/** name and version from the package.json nearest to the module, if any. */
function describeImplementation(url, options) {
  let name = options.name;
  let version = options.version;
  if (url.startsWith('file:') && (name === undefined || version === undefined)) {
    let dir = path.dirname(fileURLToPath(url));
    for (;;) {
      const candidate = path.join(dir, 'package.json');
      if (fs.existsSync(candidate)) {
        try {
          const pkg = JSON.parse(fs.readFileSync(candidate, 'utf8'));
          if (name === undefined && typeof pkg.name === 'string' && pkg.name !== '') name = pkg.name;
          if (version === undefined && typeof pkg.version === 'string') version = pkg.version;
        } catch {
          // An unreadable package.json names nothing; the defaults below apply.
        }
        break;
      }
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  if (name === undefined) name = path.basename(url.startsWith('file:') ? fileURLToPath(url) : url) || 'javascript-rcip';
  return { name, version: version === undefined ? 'unknown' : version, language: 'javascript' };
}

// ------------------------------------------------------------------------------------------------
// Virtual clock and settling
// ------------------------------------------------------------------------------------------------

/** The clock is installed before the implementation is loaded, so it captures the fakes. */
const clock = FakeTimers.install({
  now: 0,
  toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
});

let activityCount = 0;
let faults = [];

const hooks = {
  activity() {
    activityCount += 1;
  },
  fault(message) {
    faults.push(message);
  },
  log,
  async advance(ms) {
    if (!Number.isInteger(ms) || ms < 0) throw new AdapterError('clock advance needs an integer ms >= 0');
    try {
      // tickAsync fires due timers in order and lets promise reactions run between them.
      await clock.tickAsync(ms);
    } catch (error) {
      log(`a timer callback threw during clock advance: ${describeError(error)}`);
      return { reply: 'threw' };
    }
    return { reply: 'done' };
  },
};

/**
 * Runs pending promise reactions (and timers due at the current virtual instant) until quiet:
 * QUIET_ROUNDS macrotask rounds in a row in which nothing happened, or one such round after which
 * nothing is left that could make anything happen (`nothingPending`). Every promise reaction
 * runs within the round that queued it (the microtask queue empties before the next macrotask), so
 * a later round can only run something an immediate, a due virtual timer or I/O starts; with none
 * of those the remaining quiet rounds are certain to be quiet too, and skipping them (most of the
 * adapter's own time per step, issue 29 §2) changes no answer.
 */
async function settle() {
  let quiet = 0;
  for (let round = 0; round < MAX_ROUNDS && quiet < QUIET_ROUNDS; round += 1) {
    const before = activityCount;
    await new Promise((resolve) => setImmediate(resolve));
    // tick(0) runs what fake-timers has due now and otherwise changes nothing: skipped when
    // nothing is due (it cost more than the settling round itself).
    if (somethingDueNow()) {
      try {
        clock.tick(0);
      } catch (error) {
        log(`a timer due now threw: ${describeError(error)}`);
      }
    }
    quiet = activityCount === before ? quiet + 1 : 0;
    if (quiet > 0 && nothingPending()) break;
  }
}

/** The adapter's own stdin, stdout and stderr, as `process.getActiveResourcesInfo` names them. */
const STDIO_RESOURCES = ['PipeWrap', 'TTYWrap'];

/**
 * Whether a virtual timer is due at the current instant. Fake-timers keeps its timers in
 * `clock.timers` (a Map, in the pinned version); without it the answer is "maybe" (true).
 */
function timerDueNow() {
  if (clock.countTimers() === 0) return false;
  if (!(clock.timers instanceof Map)) return true;
  for (const timer of clock.timers.values()) {
    if (!(timer.callAt > clock.now)) return true;
  }
  return false;
}

/** Whether `clock.tick(0)` has anything to run: a timer due now, or a fake-timers job. */
function somethingDueNow() {
  return (Array.isArray(clock.jobs) && clock.jobs.length > 0) || timerDueNow();
}

/**
 * Whether nothing could run before the next request: no virtual timer due now, and no active
 * resource (an immediate, a real timer, I/O, a message port, a child process) other than at most
 * the adapter's three standard streams. Without a readable `clock.timers` settling takes every
 * round.
 */
function nothingPending() {
  if (timerDueNow()) return false;
  const resources = process.getActiveResourcesInfo();
  return resources.length <= 3 && resources.every((name) => STDIO_RESOURCES.includes(name));
}

// ------------------------------------------------------------------------------------------------
// Requests
// ------------------------------------------------------------------------------------------------

let implementation;
let loadError;
let current;
/** Whether the answer to the request before the one being answered was `done` (`ifDone`). */
let previousDone = false;
/** The request being answered ends a case (`finish`): its answers go out at once (`main`). */
let caseFinished = false;

async function load(options) {
  // With --react the implementation runs in a browser-like process from the start: a module that
  // checks for a DOM when it loads (an "isomorphic layout effect", say) finds jsdom's.
  if (options.react !== undefined) installDom({ log, onWarning: (message) => hooks.fault(message) });
  const url = resolveModule(options.module);
  const module = await import(url);
  const missing = ['createRcipRuntime', 'defineRcipScope', 'defineRcipCapability', 'defineRcipApplication']
    .filter((name) => typeof module[name] !== 'function');
  // Rixx UI (lib/rui.mjs): a module exporting the consumer surface declares `rui`; one exporting
  // only that surface declares no RCIP (and none of its profiles).
  const rui = ruiSurface(module);
  if (rui !== undefined && missing.length === 4) return { module, rui, hello: ruiHello(url, options, rui) };
  if (missing.length > 0) throw new Error(`the module ${options.module} does not export ${missing.join(', ')}`);
  if (module.RCIP_PROTOCOL_VERSION !== undefined && module.RCIP_PROTOCOL_VERSION !== '1.0') {
    log(`RCIP_PROTOCOL_VERSION is ${JSON.stringify(module.RCIP_PROTOCOL_VERSION)}, not "1.0"`);
  }
  // Assist (section C names no JavaScript API): driven through `createRcipAssist` (lib/assist.mjs).
  const assistExport = typeof module.createRcipAssist === 'function' ? 'createRcipAssist' : undefined;
  const boundExport = Object.keys(module).find((name) => /batch_?bound/i.test(name) && Number.isInteger(module[name]));
  const profiles = ['events'];
  if (assistExport !== undefined) profiles.push('assist');
  const react = await loadReact(module, url, options);
  if (react !== undefined) profiles.push('react');
  if (rui !== undefined) profiles.push(...rui.framings);
  return {
    module,
    react,
    rui,
    hello: {
      reply: 'hello',
      protocol: DRIVER_PROTOCOL,
      implementation: describeImplementation(url, options),
      protocols: rui === undefined ? ['rcip'] : ['rcip', 'rui'],
      profiles,
      limits: rui === undefined ? null : rui.limits,
      // CL-C01 RECOMMENDED N = 8 when the module declares Assist without exporting its bound.
      assistBatchBound: assistExport === undefined ? null : Math.min(32, Math.max(1, boundExport === undefined ? 8 : module[boundExport])),
      // Requests are answered strictly in order, one at a time (`main`), and stdin is read
      // while one is handled (lib/stdio.mjs): the harness may send ahead (harness/driver/README.md,
      // "Pipelining"); each start is marked on stderr (`answer`), so whole cases may go ahead.
      pipelining: true,
      caseMarks: true,
      // A step marked `ifDone` after an answer other than `done` is skipped (`answer`).
      conditionalRequests: true,
    },
  };
}

/** The handshake of a module that implements the Rixx UI consumer surface only. */
function ruiHello(url, options, rui) {
  return {
    reply: 'hello',
    protocol: DRIVER_PROTOCOL,
    implementation: describeImplementation(url, options),
    protocols: ['rui'],
    profiles: rui.framings,
    limits: rui.limits,
    assistBatchBound: null,
    pipelining: true,
    caseMarks: true,
    conditionalRequests: true,
  };
}

/**
 * The React entry of CLARIFICATIONS A08: the module named by --react (which must export the whole
 * surface, else the handshake is refused), or the main module when it exports it. Undefined when
 * there is none: the adapter then does not declare `react`.
 */
async function loadReact(module, url, options) {
  let entry = module;
  let entryUrl = url;
  if (options.react !== undefined) {
    entryUrl = resolveModule(options.react);
    entry = await import(entryUrl);
    const missing = missingReactSurface(entry);
    if (missing.length > 0) throw new Error(`the React entry ${options.react} does not export ${missing.join(', ')}`);
  } else {
    const missing = missingReactSurface(entry);
    if (missing.length === REACT_SURFACE.length) return undefined;
    if (missing.length > 0) {
      log(`the module exports part of the A08 React surface but not ${missing.join(', ')}: profile react not declared`);
      return undefined;
    }
  }
  // react-dom loads at the first case that renders, and so does jsdom unless --react made it a
  // global before the implementation loaded (`load`): a run without react cases and without
  // --react never pays for them (a second or more). A React warning, or an error React or jsdom
  // reports that nobody expected, makes the step that caused it answer `error` (`faults`): never
  // ignored.
  let env;
  return {
    entry,
    get env() {
      if (env === undefined) env = loadReactEnvironment(entryUrl, { log, onWarning: (message) => hooks.fault(message) });
      return env;
    },
  };
}

/**
 * Whether a request touches React: a `react` step, or any request while the case has a client
 * root (vectors/README.md: every step of a case that has a mounted root runs inside act; a start
 * or finish unmounts the last case's root). Other requests skip act, which costs a task per call.
 */
function needsAct(request) {
  if (request === null || typeof request !== 'object') return false;
  const rendered = current !== undefined && current.react !== undefined && current.react.root !== undefined;
  if (request.cmd === 'start' || request.cmd === 'finish') return rendered;
  if (request.cmd !== 'step') return false;
  return rendered || (request.step !== null && typeof request.step === 'object' && Object.hasOwn(request.step, 'react'));
}

/**
 * Runs one request inside React's act (profile react): what the step causes (renders, effects,
 * refreshes that re-render a snapshot user) is committed before the answer, then a second act lets
 * what the commit started settle too. Errors React collected during the flush are the case's
 * uncaught errors (`afterAct`).
 */
async function handleInAct(request, react) {
  const { act } = react.env.React;
  let reply;
  let failure;
  let caseOfStep;
  const settles = request.cmd === 'start' || request.cmd === 'step';
  try {
    await act(async () => {
      try {
        reply = await handle(request);
        caseOfStep = current;
        if (settles) await settle();
      } catch (thrown) {
        failure = thrown;
      }
    });
    if (settles && failure === undefined) await act(async () => settle());
  } catch (collected) {
    if (caseOfStep !== undefined && caseOfStep.react !== undefined) caseOfStep.react.uncaught.push(collected);
    else log(`React reported an error: ${describeError(collected)}`);
  }
  if (failure !== undefined) throw failure;
  if (request.cmd === 'step' && caseOfStep !== undefined) reply = caseOfStep.afterAct(request.step, reply);
  return reply;
}

function error(message) {
  return { reply: 'error', message };
}

async function handle(request) {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return error('a request must be a JSON object');
  switch (request.cmd) {
    case 'hello':
      if (request.protocol !== DRIVER_PROTOCOL) {
        return error(`this adapter speaks ${DRIVER_PROTOCOL}, the harness sent ${JSON.stringify(request.protocol)}`);
      }
      if (implementation === undefined) return error(`cannot load the implementation: ${loadError}`);
      return implementation.hello;
    case 'start': {
      if (implementation === undefined) return error(`cannot load the implementation: ${loadError}`);
      if (current !== undefined) current.dispose();
      current = undefined;
      clock.reset();
      if (request.protocol === 'rui' && implementation.rui === undefined) return unsupported('the module does not export the Rixx UI consumer surface (createRuiConsumer)');
      if (request.protocol === 'rcip' && implementation.hello.protocols[0] !== 'rcip') return unsupported('the module exports the Rixx UI consumer surface only');
      if (request.protocol !== 'rcip' && request.protocol !== 'rui') return error(`unknown protocol ${JSON.stringify(request.protocol)}`);
      const started = request.protocol === 'rui'
        ? new RuiCase(implementation.module, implementation.rui, request.setup, hooks)
        : new RcipCase(implementation.module, request.setup, hooks, implementation.react);
      const reply = started.start();
      if (reply.reply === 'done') current = started;
      return reply;
    }
    case 'step':
      if (current === undefined) return error('step sent while no case is running');
      return current.step(request.step);
    case 'finish':
      if (current !== undefined) current.dispose();
      current = undefined;
      caseFinished = true;
      return { reply: 'done' };
    default:
      return error(`unknown cmd ${JSON.stringify(request.cmd)}`);
  }
}

async function answer(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (parseError) {
    return error(`request is not JSON: ${parseError.message}`);
  }
  if (request && request.cmd === 'bye') return 'bye';
  if (request && request.cmd === 'step' && request.ifDone === true && !previousDone) {
    // harness/driver/README.md, "Conditional requests": the step was sent ahead of the answer it
    // depends on, and that answer was not `done`: the implementation never sees it.
    return { reply: 'skipped' };
  }
  if (request && request.cmd === 'start') {
    // The case mark (harness/driver/README.md, "Sending cases ahead"), before anything the case
    // does: process.stderr is synchronous on pipes and carries the implementation's own writes
    // (console.error) in the same order.
    process.stderr.write(`\x1ercip-rui-driver start ${request.case}\n`);
  }
  faults = [];
  let reply;
  try {
    const react = implementation !== undefined ? implementation.react : undefined;
    if (react !== undefined && needsAct(request)) {
      reply = await handleInAct(request, react);
    } else {
      reply = await handle(request);
      if (request && (request.cmd === 'start' || request.cmd === 'step')) await settle();
    }
  } catch (failure) {
    const kind = failure instanceof AdapterError ? '' : 'adapter bug: ';
    reply = error(`${kind}${describeError(failure)}`);
  }
  if (faults.length > 0) reply = error(`adapter failure ${faults.join('; ')}`);
  return reply;
}

async function main() {
  let options;
  try {
    options = parseArguments(process.argv.slice(2));
    implementation = await load(options);
  } catch (failure) {
    loadError = describeError(failure);
    log(loadError);
  }
  // Answers are flushed when no further request is already read (as in reference-driver): a
  // harness sending ahead gets the answers to what it sent in one write, and one sending a
  // request at a time gets each answer at once.
  const requests = new RequestLines(process.stdin);
  for (;;) {
    const line = requests.take();
    if (line === null) break;
    if (line === undefined) {
      answers.flush();
      await requests.more();
      continue;
    }
    if (line.trim() === '') continue;
    const reply = await answer(line);
    if (reply === 'bye') break;
    previousDone = reply !== null && typeof reply === 'object' && reply.reply === 'done';
    let text;
    try {
      text = JSON.stringify(reply);
    } catch (failure) {
      text = JSON.stringify(error(`cannot encode the reply: ${describeError(failure)}`));
    }
    if (!stdoutBroken) answers.add(text);
    // Also at the end of each case: the harness judges it while the next ones run (it sends
    // several cases in one write, harness/driver/README.md, "Sending cases ahead").
    if (!requests.hasLine() || caseFinished) answers.flush();
    caseFinished = false;
  }
  process.exit(0);
}

main().catch((failure) => {
  log(`fatal: ${describeError(failure)}`);
  process.exit(1);
});
