// The JSON Schema profile (RCIP-LIFE "JSON Schema support"; CLARIFICATIONS B19): "RCIP uses Ajv
// 8's JSON Schema 2020-12 implementation with strict: true and allErrors: true. Input and output
// are validated; values are not coerced and additional properties are not removed." No formats,
// no custom keywords, no remote references: Ajv with nothing installed refuses every one of them
// at compilation (an unknown format or keyword, or a `$ref` it cannot resolve, throws in strict
// mode), which is exactly the host configuration error the texts ask for.

import Ajv2020 from 'ajv/dist/2020.js';

import { ConfigurationError } from './errors.mjs';

/**
 * Compiled validators by the schema's JSON text. Compilation is pure, so a schema compiled once
 * (for one runtime, or for a usage example) is reused by every runtime.
 */
const compiled = new Map();

/**
 * One Ajv instance compiles every schema without an `$id` (an instance costs tens of milliseconds
 * to set up, a compilation one or two). A schema that declares an `$id` anywhere gets an instance
 * of its own: Ajv registers ids, and two capabilities may well use the same one.
 */
let shared;
function ajvFor(schema, text) {
  if (text.includes('"$id"')) return newAjv();
  if (shared === undefined) shared = newAjv();
  return shared;
}

function newAjv() {
  return new Ajv2020({
    strict: true,
    allErrors: true,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    // Nothing is ever fetched: a remote `$ref` stays unresolved and compilation throws.
    loadSchema: undefined,
  });
}

/**
 * A validator for `schema` (a plain JSON value already detached from the caller): a function
 * returning `null` when the value is valid, else the list of `{ instancePath, keyword, message }`.
 * Throws a ConfigurationError when the schema is not a valid schema of the profile. `what` names
 * the schema in that error (never echoing data values).
 */
export function compileSchema(schema, what) {
  const key = JSON.stringify(schema);
  let entry = compiled.get(key);
  if (entry === undefined) {
    try {
      const validate = ajvFor(schema, key).compile(schema);
      entry = { validate };
    } catch (error) {
      entry = { error: error && error.message ? String(error.message) : 'invalid schema' };
    }
    compiled.set(key, entry);
  }
  if (entry.error !== undefined) throw new ConfigurationError(`${what} is not a valid JSON Schema 2020-12 (strict profile): ${entry.error}`);
  const { validate } = entry;
  return (value) => {
    if (validate(value)) return null;
    return (validate.errors || []).map((issue) => ({
      instancePath: issue.instancePath,
      keyword: issue.keyword,
      message: issue.message || 'is invalid',
    }));
  };
}
