// Host values across the driver protocol (vectors/README.md, "Values"): `fromWire` turns a vector
// value, with its `$value` escapes, into the real JavaScript value; `toWire` turns whatever an
// implementation hands back into JSON again, writing an escape for everything plain JSON cannot
// hold, so an observation is always valid JSON and never loses the difference a vector checks.

/** A failure of the adapter itself (a malformed request or a vector this adapter cannot carry out). */
export class AdapterError extends Error {}

export function fail(message) {
  throw new AdapterError(message);
}

/** Deeper values than this are refused rather than risking the adapter's own stack. */
const MAX_DEPTH = 2000;

const JSON_ESCAPES = new Set(['undefined', 'NaN', 'Infinity', '-Infinity', '-0', 'function', 'symbol']);

/** One class per name, so every `class-instance` escape naming `Point` shares the class `Point`. */
const classes = new Map();

export function classNamed(name) {
  let found = classes.get(name);
  if (found === undefined) {
    found = { [name]: class {} }[name];
    classes.set(name, found);
  }
  return found;
}

/** Defines an own, enumerable, writable member (never the `__proto__` setter). */
function defineOwnMember(target, key, value) {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * `defineOwnMember` on an object the adapter made itself (`{}`, an array, a null-prototype object,
 * an instance of a `classNamed` class), whose prototype chain is the language's own: when no object
 * of the chain has a member of that name, assigning defines exactly the same own data member, several
 * times faster (defining every member was a tenth of the adapter's own time, issue 29 §2). A name the
 * chain has (`__proto__`, `toString`, ...) could meet a setter or a read-only member: it is defined.
 */
function defineMember(target, key, value) {
  if (key in target) defineOwnMember(target, key, value);
  else target[key] = value;
}

export function isPlainRecord(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** JSON Pointer (RFC 6901) to its reference tokens. */
export function parsePointer(pointer) {
  if (typeof pointer !== 'string') fail(`a pointer must be a string, got ${typeof pointer}`);
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) fail(`pointer ${JSON.stringify(pointer)} does not start with "/"`);
  return pointer.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function escapePointerToken(token) {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Reference tokens back to a JSON Pointer (the inverse of parsePointer). */
export function formatPointer(tokens) {
  return tokens.map((token) => `/${escapePointerToken(token)}`).join('');
}

/**
 * A `getter` escape until its container exists: the container gets an accessor property (an
 * enumerable, configurable getter) answering `answers` in order, one per read, the last one again
 * once they run out. Each answer is built once, so a read gives the same object each time.
 */
class GetterSpec {
  constructor(answers) {
    this.answers = answers;
  }
}

/** Puts `built` at `key` of `target`: a data member, or the accessor a getter escape stands for. */
function place(target, key, built) {
  if (!(built instanceof GetterSpec)) {
    defineMember(target, key, built);
    return;
  }
  const { answers } = built;
  let reads = 0;
  Object.defineProperty(target, key, {
    get() {
      reads += 1;
      return answers[Math.min(reads, answers.length) - 1];
    },
    enumerable: true,
    configurable: true,
  });
}

/** Placeholder for a `ref` escape until the whole value exists. */
class PendingRef {
  constructor(pointer, container, key) {
    this.pointer = pointer;
    this.container = container;
    this.key = key;
    this.resolving = false;
  }
}

function expectKeys(wire, allowed, what) {
  for (const key of Object.keys(wire)) {
    if (!allowed.includes(key)) fail(`${what} escape has an unexpected member ${JSON.stringify(key)}`);
  }
}

/**
 * Turns a vector value into the JavaScript value it stands for. `ref` pointers are read against
 * the JavaScript value being built (so a pointer into a class instance names its field, not
 * `fields`), from the root of the value passed here. Members of a `literal` object are values too.
 */
export function fromWire(wire) {
  const pending = [];
  const holder = { root: undefined };

  function build(w, container, key, depth) {
    if (depth > MAX_DEPTH) fail(`value nested deeper than ${MAX_DEPTH}`);
    if (w === null || typeof w === 'boolean' || typeof w === 'string' || typeof w === 'number') return w;
    if (Array.isArray(w)) {
      const array = new Array(w.length);
      for (let i = 0; i < w.length; i += 1) place(array, i, build(w[i], array, i, depth + 1));
      return array;
    }
    if (typeof w !== 'object') fail(`not a JSON value: ${typeof w}`);
    if (Object.hasOwn(w, '$value')) return buildEscape(w, container, key, depth);
    return buildRecord(w, {}, depth);
  }

  function buildRecord(members, target, depth) {
    for (const [k, v] of Object.entries(members)) place(target, k, build(v, target, k, depth + 1));
    return target;
  }

  function buildEscape(w, container, key, depth) {
    const kind = w.$value;
    if (JSON_ESCAPES.has(kind)) {
      expectKeys(w, ['$value'], kind);
      switch (kind) {
        case 'undefined': return undefined;
        case 'NaN': return NaN;
        case 'Infinity': return Infinity;
        case '-Infinity': return -Infinity;
        case '-0': return -0;
        case 'function': return function escapedFunction() {};
        default: return Symbol('escaped');
      }
    }
    switch (kind) {
      case 'bigint':
        expectKeys(w, ['$value', 'digits'], kind);
        if (typeof w.digits !== 'string' || !/^-?[0-9]+$/.test(w.digits)) fail('bigint escape needs decimal digits');
        return BigInt(w.digits);
      case 'class-instance': {
        expectKeys(w, ['$value', 'class', 'fields'], kind);
        if (typeof w.class !== 'string' || w.class === '') fail('class-instance escape needs a class name');
        if (!isPlainRecord(w.fields)) fail('class-instance escape needs fields');
        const Klass = classNamed(w.class);
        return buildRecord(w.fields, new Klass(), depth);
      }
      case 'null-prototype':
        expectKeys(w, ['$value', 'fields'], kind);
        if (!isPlainRecord(w.fields)) fail('null-prototype escape needs fields');
        return buildRecord(w.fields, Object.create(null), depth);
      case 'sparse-array': {
        expectKeys(w, ['$value', 'length', 'items'], kind);
        if (!Number.isInteger(w.length) || w.length < 0 || w.length > 4294967295) fail('sparse-array length out of range');
        if (!isPlainRecord(w.items)) fail('sparse-array escape needs items');
        const array = new Array(w.length);
        for (const [index, item] of Object.entries(w.items)) {
          if (!/^(0|[1-9][0-9]*)$/.test(index) || Number(index) >= w.length) fail(`sparse-array index ${index} outside its length`);
          place(array, Number(index), build(item, array, Number(index), depth + 1));
        }
        return array;
      }
      case 'getter': {
        expectKeys(w, ['$value', 'reads'], kind);
        if (!Array.isArray(w.reads) || w.reads.length === 0) fail('getter escape needs a non-empty reads list');
        if (container === holder) fail('a getter escape is only valid as a member or an item');
        // Each answer is a value of its own (its refs point into it), as in the reference adapter.
        const answers = w.reads.map((answer) => fromWire(answer));
        return new GetterSpec(answers);
      }
      case 'ref': {
        expectKeys(w, ['$value', 'to'], kind);
        parsePointer(w.to);
        const ref = new PendingRef(w.to, container, key);
        pending.push(ref);
        return ref;
      }
      case 'literal':
        expectKeys(w, ['$value', 'object'], kind);
        if (!isPlainRecord(w.object)) fail('literal escape needs an object');
        return buildRecord(w.object, {}, depth);
      default:
        fail(`unknown escape $value ${JSON.stringify(kind)}`);
    }
  }

  function resolve(ref) {
    if (ref.resolving) fail(`ref ${JSON.stringify(ref.pointer)} refers to itself`);
    ref.resolving = true;
    let current = holder.root;
    if (current === ref) fail('a ref cannot be the whole value');
    for (const token of parsePointer(ref.pointer)) {
      if (current instanceof PendingRef) current = resolve(current);
      if (current === null || typeof current !== 'object' || !Object.hasOwn(current, token)) {
        fail(`ref ${JSON.stringify(ref.pointer)} names nothing in the value`);
      }
      current = current[token];
    }
    if (current instanceof PendingRef) current = resolve(current);
    ref.container[ref.key] = current;
    ref.resolving = false;
    return current;
  }

  holder.root = build(wire, holder, 'root', 0);
  for (const ref of pending) {
    if (ref.container[ref.key] === ref) resolve(ref);
  }
  return holder.root;
}

function className(value) {
  try {
    const name = value.constructor && value.constructor.name;
    if (typeof name === 'string' && name !== '') return name;
  } catch {
    // An exotic constructor getter: fall back to the built-in tag below.
  }
  return Object.prototype.toString.call(value).slice(8, -1);
}

function readMember(value, key) {
  try {
    return value[key];
  } catch (error) {
    fail(`reading member ${JSON.stringify(key)} of an observed value threw: ${error && error.message}`);
  }
}

/**
 * The JSON form of a JavaScript value: plain JSON as is (object keys sorted, so the line is
 * canonical), everything else as an escape. A null-prototype object is written as a plain object
 * (JSON holds it); a shared acyclic reference is written out at each place; only a cycle becomes a
 * `ref` to the ancestor, as a pointer from the root of `value`.
 *
 * `toWire` keeps an own member whose value is `undefined` as the escape `{"$value": "undefined"}`:
 * right for values whose every key matters (what a caller passed, a payload a callback received).
 * Protocol objects an implementation hands out (snapshots, contexts, outcomes, events) are read
 * with JavaScript's optionality instead: see `toWireOptional`.
 */
export function toWire(value) {
  return encodeValue(value, false);
}

/**
 * `toWire` for a protocol object observed from the implementation: an object member whose value is
 * `undefined` counts as absent (TypeScript's `member?: T`, and what `JSON.stringify` or any
 * JavaScript consumer testing `x.member === undefined` sees), so it is left out. Array elements
 * and a top-level `undefined` are still written as escapes (there is no "absent" for them).
 */
export function toWireOptional(value) {
  return encodeValue(value, true);
}

function encodeValue(value, omitUndefinedMembers) {
  // The objects being encoded, each with the number of reference tokens in its path (`path` holds
  // the tokens from the root): a pointer is written out only for a cycle's `ref`, never for every
  // member on the way (building a pointer per member was the largest share of encoding).
  const ancestors = new Map();
  const path = [];

  function child(v, key, depth) {
    path.push(key);
    const encoded = encode(readMember(v, key), depth + 1);
    path.pop();
    return encoded;
  }

  function encode(v, depth) {
    switch (typeof v) {
      case 'undefined': return { $value: 'undefined' };
      case 'number':
        if (Number.isNaN(v)) return { $value: 'NaN' };
        if (v === Infinity) return { $value: 'Infinity' };
        if (v === -Infinity) return { $value: '-Infinity' };
        if (Object.is(v, -0)) return { $value: '-0' };
        return v;
      case 'bigint': return { $value: 'bigint', digits: v.toString() };
      case 'symbol': return { $value: 'symbol' };
      case 'function': return { $value: 'function' };
      case 'string':
      case 'boolean':
        return v;
      default:
        break;
    }
    if (v === null) return null;
    if (ancestors.has(v)) return { $value: 'ref', to: formatPointer(path.slice(0, ancestors.get(v))) };
    if (depth > MAX_DEPTH) fail(`observed value nested deeper than ${MAX_DEPTH}`);
    ancestors.set(v, path.length);
    try {
      if (Array.isArray(v)) {
        const length = v.length;
        let sparse = false;
        for (let i = 0; i < length && !sparse; i += 1) sparse = !Object.hasOwn(v, i);
        if (!sparse) {
          const out = [];
          for (let i = 0; i < length; i += 1) out.push(child(v, i, depth));
          return out;
        }
        const items = {};
        for (const key of Object.keys(v).filter((k) => /^(0|[1-9][0-9]*)$/.test(k)).sort((a, b) => a - b)) {
          items[key] = child(v, key, depth);
        }
        return { $value: 'sparse-array', length, items };
      }
      const fields = {};
      for (const key of Object.keys(v).sort()) {
        if (omitUndefinedMembers && readMember(v, key) === undefined) continue;
        defineMember(fields, key, child(v, key, depth));
      }
      const proto = Object.getPrototypeOf(v);
      if (proto === Object.prototype || proto === null) {
        if (Object.hasOwn(fields, '$value') || Object.hasOwn(fields, '$match')) return { $value: 'literal', object: fields };
        return fields;
      }
      return { $value: 'class-instance', class: className(v), fields };
    } finally {
      ancestors.delete(v);
    }
  }

  return encode(value, 0);
}

/** A structurally equal copy: same shapes and prototypes, new objects (functions are shared). */
export function copyStructure(value, seen = new Map()) {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  const copy = Array.isArray(value) ? new Array(value.length) : Object.create(Object.getPrototypeOf(value));
  seen.set(value, copy);
  // The prototype is the implementation's: members are defined, never assigned through it.
  for (const key of Object.keys(value)) defineOwnMember(copy, key, copyStructure(value[key], seen));
  return copy;
}

/**
 * Sets the member at `pointer` of `root` to `replacement`. A frozen target is left unchanged
 * without an exception (Reflect.set): whether a mutation lands is what the vector observes.
 */
export function setAtPointer(root, pointer, replacement) {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) fail('cannot replace the whole value through the pointer ""');
  let current = root;
  for (const token of tokens.slice(0, -1)) {
    if (current === null || typeof current !== 'object' || !(token in Object(current))) {
      fail(`pointer ${JSON.stringify(pointer)} names nothing in the value`);
    }
    current = current[token];
  }
  if (current === null || (typeof current !== 'object' && typeof current !== 'function')) {
    fail(`pointer ${JSON.stringify(pointer)} does not end in an object or array`);
  }
  let last = tokens[tokens.length - 1];
  if (Array.isArray(current) && last === '-') last = String(current.length);
  return Reflect.set(current, last, replacement);
}

/** Sorts object keys recursively: the canonical text of a JSON observation. */
export function canonical(json) {
  if (Array.isArray(json)) return json.map(canonical);
  if (json === null || typeof json !== 'object') return json;
  const out = {};
  for (const key of Object.keys(json).sort()) defineMember(out, key, canonical(json[key]));
  return out;
}
