// The record encoding of CL-D01 (tagged tuples), read from a parsed frame. "Any other tag, arity or
// field type is an invalid record" (CL-D01-9: RECORD_INVALID, PRJ-RUI-REC-02); a string tag that
// names no operation of 0.1 is an unknown operation (spec "Versioning": "Unknown operations fail
// the transaction", PRJ-RUI-REC-03: UNKNOWN_OPERATION). seq and revisions are non-negative
// integers written without fraction or exponent, and begin's seq is 0 (PRJ-RUI-REC-04).

const OPERATIONS = ['begin', 'node', 'data', 'delete', 'commit', 'abort'];
const INTEGER = /^(?:0|[1-9][0-9]*)$/;

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `{ op, seq, ... }` for a valid record, else `{ code }`. `raw` holds the numbers' source text. */
export function readRecord(value, raw) {
  if (!Array.isArray(value) || value.length === 0 || typeof value[0] !== 'string') return { code: 'RECORD_INVALID' };
  const tag = value[0];
  if (!OPERATIONS.includes(tag)) return { code: 'UNKNOWN_OPERATION' };
  const integer = (i) => typeof value[i] === 'number' && typeof raw[i] === 'string' && INTEGER.test(raw[i]) && Number.isSafeInteger(value[i]);
  const invalid = { code: 'RECORD_INVALID' };
  if (value.length !== (tag === 'node' ? 6 : 4) || !integer(1)) return invalid;
  const seq = value[1];
  switch (tag) {
    case 'begin':
      if (seq !== 0 || typeof value[2] !== 'string' || !integer(3)) return invalid;
      return { op: tag, seq, transactionId: value[2], baseRevision: value[3] };
    case 'node':
      if (typeof value[2] !== 'string' || typeof value[3] !== 'string' || !isObject(value[4])) return invalid;
      if (!Array.isArray(value[5]) || value[5].some((child) => typeof child !== 'string')) return invalid;
      return { op: tag, seq, nodeId: value[2], component: value[3], props: value[4], children: value[5] };
    case 'data':
      if (typeof value[2] !== 'string') return invalid;
      return { op: tag, seq, pointer: value[2], value: value[3] };
    case 'delete':
      if ((value[2] !== 'node' && value[2] !== 'data') || typeof value[3] !== 'string') return invalid;
      return { op: tag, seq, target: value[2], id: value[3] };
    case 'commit':
      if (!integer(2) || typeof value[3] !== 'string') return invalid;
      return { op: tag, seq, newRevision: value[2], rootId: value[3] };
    default:
      if (typeof value[2] !== 'string' || typeof value[3] !== 'string') return invalid;
      return { op: tag, seq, abortCode: value[2], message: value[3] };
  }
}

/** The reference tokens of an RFC 6901 JSON Pointer, or undefined when it is not one. */
export function parsePointer(pointer) {
  if (pointer === '') return [];
  if (pointer[0] !== '/') return undefined;
  const tokens = pointer.slice(1).split('/');
  if (tokens.some((token) => /~(?![01])/.test(token))) return undefined;
  return tokens.map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}
