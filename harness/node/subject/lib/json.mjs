// Plain JSON values (RCIP-LIFE "Context and availability"; CLARIFICATIONS B13, B14): the check
// that a value is plain JSON, the detached copy the runtime keeps of every input, output and piece
// of contract metadata, and the deep freeze that makes published snapshots immutable.
//
// "Inputs and outputs must be plain JSON: finite numbers, strings, booleans, null, arrays, and
// plain objects. Cycles, class instances, undefined, and non-finite numbers are rejected."

/**
 * Why `value` is not plain JSON, as `{ path, reason }` (path is a JSON Pointer), or `null` when it
 * is. Choices where CL-B13 leaves them open: a null-prototype object is accepted (it holds only
 * data); a shared acyclic reference is accepted (it is copied twice); `-0` is kept as it is. An own
 * accessor (getter/setter) or a symbol-keyed member is rejected: reading it would run code or lose
 * data, so the value is not plain data.
 */
export function plainJsonViolation(value) {
  const ancestors = new Set();

  function visit(v, path) {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return null;
      case 'number':
        return Number.isFinite(v) ? null : { path, reason: 'a number that is not finite' };
      case 'object':
        break;
      default:
        return { path, reason: `a ${typeof v}` };
    }
    if (v === null) return null;
    if (ancestors.has(v)) return { path, reason: 'a cycle' };
    const proto = Object.getPrototypeOf(v);
    if (Array.isArray(v)) {
      if (proto !== Array.prototype) return { path, reason: 'an array of another class' };
    } else if (proto !== Object.prototype && proto !== null) {
      return { path, reason: 'a class instance' };
    }
    if (Object.getOwnPropertySymbols(v).length > 0) return { path, reason: 'a symbol-keyed member' };
    ancestors.add(v);
    try {
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i += 1) {
          const descriptor = Object.getOwnPropertyDescriptor(v, i);
          if (descriptor === undefined) return { path: `${path}/${i}`, reason: 'a hole in a sparse array' };
          if (!('value' in descriptor)) return { path: `${path}/${i}`, reason: 'an accessor' };
          const found = visit(descriptor.value, `${path}/${i}`);
          if (found) return found;
        }
        return null;
      }
      for (const key of Object.keys(v)) {
        const descriptor = Object.getOwnPropertyDescriptor(v, key);
        const child = `${path}/${escapeToken(key)}`;
        if (!('value' in descriptor)) return { path: child, reason: 'an accessor' };
        const found = visit(descriptor.value, child);
        if (found) return found;
      }
      return null;
    } finally {
      ancestors.delete(v);
    }
  }

  return visit(value, '');
}

export function escapeToken(token) {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * A detached copy of a plain JSON value (check it first with `plainJsonViolation`): new arrays and
 * new ordinary objects, so nothing the caller keeps can reach what the runtime keeps (B14).
 */
export function copyJson(value) {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const out = {};
  for (const key of Object.keys(value)) {
    // defineProperty, so a member named "__proto__" stays a member and never changes the prototype.
    Object.defineProperty(out, key, { value: copyJson(value[key]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Freezes a value and everything it holds (snapshots are "deeply immutable", RCIP-LIFE). */
export function deepFreeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
  return value;
}
