// Test support: runs adapter.mjs as a child process over the driver protocol (as the harness's
// process adapter does), and reads the test double's journal. Every response line is checked
// against the shape of harness/driver/schema/response.schema.json, and every `observed` line
// against its canonical text (object keys sorted), so each test checks framing for free.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * Every adapter a Driver started that has not exited: killed when the test file's tests are done,
 * so that a test that failed before closing its Driver (one made without `withDriver`) makes the
 * run fail instead of keeping it waiting on a live child process forever.
 */
const live = new Set();
after(() => {
  for (const child of live) child.kill('SIGKILL');
});

const here = path.dirname(fileURLToPath(import.meta.url));
export const ADAPTER = path.join(here, '..', 'adapter.mjs');
export const DOUBLE = path.join(here, 'double.mjs');
export const DOUBLE_ASSIST = path.join(here, 'double-assist.mjs');
export const PROTOCOL = 'rcip-rui-driver/1';

/** JSON with object keys sorted: the canonical text an `observed` reply must be. */
export function canonicalText(value) {
  const sort = (v) => {
    if (Array.isArray(v)) return v.map(sort);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort(v[k])]));
  };
  return JSON.stringify(sort(value));
}

const RESPONSE_MEMBERS = {
  hello: ['reply', 'protocol', 'implementation', 'protocols', 'profiles', 'limits', 'assistBatchBound', 'pipelining', 'caseMarks', 'conditionalRequests'],
  done: ['reply'],
  skipped: ['reply'],
  threw: ['reply'],
  observed: ['reply', 'value'],
  unsupported: ['reply', 'reason'],
  error: ['reply', 'message'],
};

function checkShape(reply, line) {
  const members = RESPONSE_MEMBERS[reply.reply];
  assert.ok(members, `unknown reply kind in ${line}`);
  assert.deepEqual(Object.keys(reply).sort(), [...members].sort(), `response members of ${line}`);
  if (reply.reply === 'observed') assert.equal(line, canonicalText(reply), 'an observed reply is canonical JSON text');
  if (reply.reply === 'unsupported') assert.equal(typeof reply.reason, 'string');
  if (reply.reply === 'error') assert.equal(typeof reply.message, 'string');
}

export class Driver {
  constructor({ module = DOUBLE, args = [], env = {}, timeoutMs = 5000 } = {}) {
    this.timeoutMs = timeoutMs;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rcip-node-adapter-'));
    this.journalPath = path.join(this.dir, 'journal.jsonl');
    this.child = spawn(process.execPath, [ADAPTER, ...args, module], {
      env: { ...process.env, ...env, RCIP_DOUBLE_JOURNAL: this.journalPath },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.stderr = '';
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk) => { this.stderr += chunk; });
    this.lines = [];
    this.waiting = [];
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const next = this.waiting.shift();
      if (next) next(line);
      else this.lines.push(line);
    });
    live.add(this.child);
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => {
      live.delete(this.child);
      resolve(code);
    }));
    this.mark = 0;
  }

  nextLine() {
    if (this.lines.length > 0) return Promise.resolve(this.lines.shift());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no response in ${this.timeoutMs} ms; stderr:\n${this.stderr}`)), this.timeoutMs);
      this.waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
  }

  /** Sends a raw line; resolves with the parsed response (shape-checked) and its text. */
  async sendLine(text) {
    this.child.stdin.write(`${text}\n`);
    const line = await this.nextLine();
    const reply = JSON.parse(line);
    checkShape(reply, line);
    return reply;
  }

  /**
   * Waits until the adapter's stderr, read asynchronously, satisfies `holds` (what it wrote before
   * a response may be read after it); resolves with whether it does within `ms`.
   */
  async stderrUntil(holds, ms = 2000) {
    const until = Date.now() + ms;
    while (!holds(this.stderr) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return holds(this.stderr);
  }

  /** Writes several requests in one write (pipelined), then reads one response per request. */
  async sendMany(requests) {
    this.child.stdin.write(requests.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const replies = [];
    for (let i = 0; i < requests.length; i += 1) {
      const line = await this.nextLine();
      const reply = JSON.parse(line);
      checkShape(reply, line);
      replies.push(reply);
    }
    return replies;
  }

  send(request) {
    return this.sendLine(JSON.stringify(request));
  }

  hello() {
    return this.send({ cmd: 'hello', protocol: PROTOCOL });
  }

  start(setup, protocol = 'rcip') {
    return this.send({ cmd: 'start', case: 'test.case.001', protocol, setup });
  }

  async startOk(setup) {
    if (!this.greeted) {
      assert.equal((await this.hello()).reply, 'hello');
      this.greeted = true;
    }
    const reply = await this.start(setup);
    assert.deepEqual(reply, { reply: 'done' }, `start: ${JSON.stringify(reply)}\n${this.stderr}`);
  }

  step(step, index = 0) {
    return this.send({ cmd: 'step', index, step });
  }

  /** An action step that must answer `done`. */
  async act(step) {
    const reply = await this.step(step);
    assert.deepEqual(reply, { reply: 'done' }, `${JSON.stringify(step)} answered ${JSON.stringify(reply)}\n${this.stderr}`);
  }

  /** An expectation: the observed value. */
  async observe(step) {
    const reply = await this.step(step);
    assert.equal(reply.reply, 'observed', `${JSON.stringify(step)} answered ${JSON.stringify(reply)}\n${this.stderr}`);
    return reply.value;
  }

  /** Journal lines written by the double since the last call. */
  journal() {
    const all = fs.existsSync(this.journalPath)
      ? fs.readFileSync(this.journalPath, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
      : [];
    const fresh = all.slice(this.mark);
    this.mark = all.length;
    return fresh;
  }

  /** Journal entries of one call kind since the last journal read. */
  calls(kind) {
    return this.journal().filter((entry) => entry.call === kind);
  }

  async close() {
    if (this.child.exitCode === null) {
      this.child.stdin.end(`${JSON.stringify({ cmd: 'bye' })}\n`);
    }
    // An adapter that does not end at `bye` (a test that failed half-way may leave it so) is
    // killed, so that a failing test fails instead of hanging the whole run.
    let timer;
    const killed = new Promise((resolve) => {
      timer = setTimeout(() => { this.child.kill('SIGKILL'); resolve(); }, 10_000);
    });
    await Promise.race([this.exited, killed]);
    clearTimeout(timer);
    const code = await this.exited;
    fs.rmSync(this.dir, { recursive: true, force: true });
    return code;
  }
}

// ------------------------------------------------------------------------------------------------
// Vocabulary helpers (vectors/README.md), so tests read as steps
// ------------------------------------------------------------------------------------------------

export function capability(id, effect, extra = {}) {
  return {
    id, title: `Title of ${id}`, description: `Description of ${id}`, scopeIds: [], effect,
    inputSchema: { type: 'object' }, outputSchema: { type: 'object' }, ...extra,
  };
}

/** The definition the tests use: notes.create needs { text }, notes.delete is destructive. */
export function definition(extraCapabilities = [], application = {}) {
  return {
    protocolVersion: '1.0',
    application: { id: 'notes', name: 'Notes', description: 'A notes application', ...application },
    scopes: [
      { id: 'notes', title: 'Notes', description: 'The notes area' },
      { id: 'settings', title: 'Settings', description: 'The settings area' },
    ],
    capabilities: [
      capability('notes.create', 'write', { scopeIds: ['notes'], inputSchema: { type: 'object', required: ['text'] } }),
      capability('notes.delete', 'destructive', { scopeIds: ['notes'] }),
      capability('notes.list', 'read', { scopeIds: ['notes'] }),
      capability('double.throws', 'read'),
      capability('double.rejects', 'read'),
      ...extraCapabilities,
    ],
  };
}

export function setup(options, more = {}) {
  const out = { definition: definition(), ...more };
  if (options !== undefined) out.options = options;
  return out;
}

export const ALLOW = { decision: 'allow' };
export const allowPolicy = { policy: { mode: 'scripted', settle: { return: ALLOW } } };
export const gatedPolicy = { policy: { mode: 'gated' } };
export const returns = (value) => ({ mode: 'scripted', settle: { return: value } });
export const gated = { mode: 'gated' };
export const bind = (cap, as, handler, extra = {}) => ({ host: 'bind', capability: cap, as, handler, ...extra });
export const invoke = (as, cap, input, extra = {}) => ({ client: 'invoke', as, capability: cap, input, invocationId: as, ...extra });
export const outcome = (of) => ({ expect: 'outcome', of });
