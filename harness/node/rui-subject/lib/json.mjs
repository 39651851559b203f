// One frame's bytes to one JSON value (Rixx UI Protocol 0.1, "Framing": "Every frame contains one
// complete JSON record"; PRJ-RUI-FRAME-01: a frame that is not exactly one JSON value, invalid UTF-8
// included, is FRAME_NOT_JSON). A parser of its own rather than JSON.parse because CL-D01 and
// PRJ-RUI-REC-04 need the source text of the record's numeric fields (seq and revisions are
// integers written without fraction or exponent: `1.0` is not a seq), which JSON.parse loses.

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Deeper values than this are not parsed (the limits profile bounds depth far below it). */
export const MAX_PARSE_DEPTH = 4096;

export class NotJson extends Error {}
export class TooDeep extends Error {}

/**
 * `{ value, raw }`: the value of `bytes` and, when it is an array, the source text of each of its
 * elements that is a number (raw[i], else undefined). Throws NotJson (or TooDeep).
 */
export function parseFrame(bytes) {
  let text;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new NotJson('invalid UTF-8');
  }
  const parser = new Parser(text);
  parser.ws();
  const value = parser.value(0);
  parser.ws();
  if (parser.at !== text.length) throw new NotJson('bytes after the value');
  return { value, raw: parser.raw };
}

const WS = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

class Parser {
  constructor(text) {
    this.text = text;
    this.at = 0;
    this.raw = [];
  }

  ws() {
    while (this.at < this.text.length && WS.has(this.text[this.at])) this.at += 1;
  }

  value(depth) {
    const c = this.text[this.at];
    if (c === '{') return this.object(depth + 1);
    if (c === '[') return this.array(depth + 1);
    if (c === '"') return this.string();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]]) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null || match[0] === '' || match[0] === '-') throw new NotJson('unexpected character');
    this.at += match[0].length;
    this.lastNumber = match[0];
    return Number(match[0]);
  }

  array(depth) {
    if (depth > MAX_PARSE_DEPTH) throw new TooDeep('nested too deeply');
    this.at += 1;
    const out = [];
    this.ws();
    if (this.text[this.at] === ']') {
      this.at += 1;
      return out;
    }
    for (;;) {
      this.ws();
      this.lastNumber = undefined;
      const item = this.value(depth);
      if (depth === 1) this.raw[out.length] = typeof item === 'number' ? this.lastNumber : undefined;
      out.push(item);
      this.ws();
      const c = this.text[this.at];
      this.at += 1;
      if (c === ']') return out;
      if (c !== ',') throw new NotJson('expected , or ]');
    }
  }

  object(depth) {
    if (depth > MAX_PARSE_DEPTH) throw new TooDeep('nested too deeply');
    this.at += 1;
    const out = {};
    this.ws();
    if (this.text[this.at] === '}') {
      this.at += 1;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.text[this.at] !== '"') throw new NotJson('expected a member name');
      const key = this.string();
      this.ws();
      if (this.text[this.at] !== ':') throw new NotJson('expected :');
      this.at += 1;
      this.ws();
      const item = this.value(depth);
      Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
      this.ws();
      const c = this.text[this.at];
      this.at += 1;
      if (c === '}') return out;
      if (c !== ',') throw new NotJson('expected , or }');
    }
  }

  string() {
    this.at += 1;
    let out = '';
    let start = this.at;
    for (;;) {
      if (this.at >= this.text.length) throw new NotJson('unterminated string');
      const c = this.text[this.at];
      const code = c.charCodeAt(0);
      if (c === '"') {
        out += this.text.slice(start, this.at);
        this.at += 1;
        return out;
      }
      if (code < 0x20) throw new NotJson('control character in a string');
      if (c === '\\') {
        out += this.text.slice(start, this.at);
        const e = this.text[this.at + 1];
        if (e === 'u') {
          const hex = this.text.slice(this.at + 2, this.at + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new NotJson('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          this.at += 6;
        } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
          out += ESCAPES[e];
          this.at += 2;
        } else {
          throw new NotJson('bad escape');
        }
        start = this.at;
      } else {
        this.at += 1;
      }
    }
  }
}
