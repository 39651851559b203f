// The limits profile (spec "Graph invariants": "IDs, props, arrays, strings, depth, operation counts,
// and total bytes are bounded"; CL-D04), measured as the register fixes it: strings and arrays
// inside props and data values, depth of each value (an object or array is 1, each container
// inside adds 1), PRJ-RUI-LIMIT-07..10. The consumer runs under any bounds it is given.

import { Failure } from './failure.mjs';

/** The minimum profile of PRJ-RUI-LIMIT-11, declared as this consumer's own. */
export const DEFAULT_LIMITS = Object.freeze({
  maxIdLength: 64,
  maxStringLength: 1024,
  maxArrayLength: 64,
  maxDepth: 16,
  maxOperations: 64,
  maxTransactionBytes: 65536,
});

export function checkLimits(limits) {
  const out = {};
  for (const key of Object.keys(DEFAULT_LIMITS)) {
    const value = limits[key];
    if (!Number.isInteger(value) || value < 0) throw new TypeError(`limits.${key} must be a non-negative integer`);
    out[key] = value;
  }
  return out;
}


/** The nesting depth of a JSON value: scalars 0, a container 1 plus its deepest member. */
export function valueDepth(value) {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  for (const member of Object.values(value)) deepest = Math.max(deepest, valueDepth(member));
  return deepest + 1;
}

/** Throws a Failure when a value breaks the string, array or depth bound. */
export function boundValue(value, limits) {
  const walk = (v, depth) => {
    if (typeof v === 'string') {
      if (v.length > limits.maxStringLength) throw new Failure('LIMIT_STRING_LENGTH');
      return;
    }
    if (v === null || typeof v !== 'object') return;
    if (depth > limits.maxDepth) throw new Failure('LIMIT_DEPTH');
    if (Array.isArray(v) && v.length > limits.maxArrayLength) throw new Failure('LIMIT_ARRAY_LENGTH');
    for (const member of Object.values(v)) walk(member, depth + 1);
  };
  walk(value, 1);
}

