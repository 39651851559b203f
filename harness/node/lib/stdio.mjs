// The adapter's two pipes to the harness (harness/driver/README.md, "Pipelining"): `RequestLines`
// reads the request lines from stdin and can tell whether another whole line is already read, and
// `Answers` holds the response lines until then, so that the answers to requests sent ahead go out
// in one write instead of one each (issue 29 §2: a write per answer was a sixth of the adapter
// process's busy time), while an answer whose request is the last one read goes out at once.
//
// Nothing written is lost: `Answers` writes synchronously (never through a stream queue that
// process.exit drops), and the adapter flushes it at `bye`, at the end of input and on exit. An
// answer is never held longer than HOLD_MS of event-loop time after it is ready, so each answer
// reaches the harness within its own deadline (counted from the answer before it) however many
// requests were sent after it.

import fs from 'node:fs';

/** The longest an answer waits for later ones while the adapter works on those (ms). */
export const HOLD_MS = 20;

/**
 * Request lines from a readable stream: a line ends at `\n`, and a `\r` just before it is not
 * part of the line (as readline read them before); text after the last `\n` at the end of input
 * is a line too. Each chunk is searched once, as it arrives: the lines it completes wait in a
 * queue, and only the unfinished last line is kept as text (joining every chunk to what was still
 * unread made each search copy the whole backlog).
 */
export class RequestLines {
  constructor(input) {
    /** Whole lines read and not yet taken: `lines[head..]`. */
    this.lines = [];
    this.head = 0;
    /** The text after the last `\n` read so far. */
    this.partial = '';
    this.ended = false;
    this.failure = undefined;
    this.wake = undefined;
    input.setEncoding('utf8');
    input.on('data', (chunk) => {
      this.read(chunk);
      this.notify();
    });
    input.on('end', () => {
      this.ended = true;
      this.notify();
    });
    input.on('error', (error) => {
      this.failure = error;
      this.notify();
    });
  }

  read(chunk) {
    let end = chunk.indexOf('\n');
    if (end < 0) {
      this.partial += chunk;
      return;
    }
    this.push(this.partial + chunk.slice(0, end));
    let start = end + 1;
    for (end = chunk.indexOf('\n', start); end >= 0; end = chunk.indexOf('\n', start)) {
      this.push(chunk.slice(start, end));
      start = end + 1;
    }
    this.partial = chunk.slice(start);
  }

  push(line) {
    this.lines.push(line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line);
  }

  notify() {
    const wake = this.wake;
    this.wake = undefined;
    if (wake !== undefined) wake();
  }

  /** Whether a whole line is already read: `take` would return it without waiting. */
  hasLine() {
    return this.head < this.lines.length;
  }

  /**
   * The next line if it is already read (`undefined` if not); at the end of input, the rest of the
   * text, then `null` when nothing is left.
   */
  take() {
    if (this.head < this.lines.length) {
      const line = this.lines[this.head];
      this.head += 1;
      if (this.head === this.lines.length) {
        this.lines = [];
        this.head = 0;
      }
      return line;
    }
    if (this.failure !== undefined) throw this.failure;
    if (!this.ended) return undefined;
    if (this.partial !== '') {
      const rest = this.partial;
      this.partial = '';
      return rest;
    }
    return null;
  }

  /** Resolves when more input, its end or a read error has arrived. */
  more() {
    if (this.ended || this.failure !== undefined) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }
}

/**
 * Response lines held until `flush`, then written to file descriptor `fd` in one synchronous
 * write. `timers` are the real setTimeout and clearTimeout (fake-timers replaces the globals):
 * the first answer held arms an unreferenced timer that flushes after HOLD_MS, so a request that
 * takes long does not delay the answers before it. `onFailure(error)` hears a write that failed
 * (the harness closed the pipe); what was held is dropped then.
 */
export class Answers {
  constructor(fd, { setTimeout, clearTimeout }, onFailure) {
    this.fd = fd;
    this.setTimeout = setTimeout;
    this.clearTimeout = clearTimeout;
    this.onFailure = onFailure;
    this.held = '';
    this.timer = undefined;
    this.flushLater = () => {
      this.timer = undefined;
      this.flush();
    };
  }

  /** Holds one response line (its text, without the newline). */
  add(line) {
    this.held += `${line}\n`;
    if (this.timer === undefined) {
      this.timer = this.setTimeout(this.flushLater, HOLD_MS);
      this.timer.unref();
    }
  }

  /** Writes what is held, all of it, before returning. */
  flush() {
    if (this.timer !== undefined) {
      this.clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.held === '') return;
    const bytes = Buffer.from(this.held, 'utf8');
    this.held = '';
    try {
      writeAll(this.fd, bytes);
    } catch (error) {
      this.onFailure(error);
    }
  }
}

/** One int32 to wait on: a synchronous pause while the harness empties a full pipe. */
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes every byte of `bytes` to `fd`. Node makes stdout's pipe non-blocking, so a full pipe
 * takes part of a write (or none: EAGAIN); the rest is written once the harness has read some
 * (it keeps reading answers while it writes requests, harness/driver/README.md).
 */
function writeAll(fd, bytes) {
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(fd, bytes, offset);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
