// Definitions (RCIP-PROTO "Definitions"; CLARIFICATIONS A02, B18): the define* helpers, and the
// check a runtime makes of an application definition when it is created. The catalog it returns
// is the runtime's own detached copy of the contract metadata ("The runtime copies contract
// metadata"), keyed by the very capability objects the definition holds, so that bindCapability
// can insist on "the same definition object that belongs to the runtime catalog" (RCIP-LIFE).

import { ConfigurationError } from './errors.mjs';
import { copyJson, plainJsonViolation } from './json.mjs';
import { compileSchema } from './schema.mjs';

export const RCIP_PROTOCOL_VERSION = '1.0';

export const EFFECTS = Object.freeze(['read', 'write', 'external', 'destructive']);

/**
 * B18: a lowercase ASCII letter first; segments separated by one `.`, `_` or `-`, each followed by
 * a lowercase letter; segment characters are ASCII letters and digits. Runs of capitals or digits
 * inside a segment (`getURL`, `v2beta`) are accepted (IMPL-DEFINED in B18).
 */
const IDENTIFIER = /^[a-z][A-Za-z0-9]*(?:[._-][a-z][A-Za-z0-9]*)*$/;

export function isIdentifier(value) {
  return typeof value === 'string' && IDENTIFIER.test(value);
}

/**
 * The define* helpers return what they are given: a definition is plain data the application
 * owns, and the runtime checks and copies it when it is created (B18: "creation throws"). Keeping
 * the object identical is what lets the application bind "the same definition object that belongs
 * to the runtime catalog".
 */
export function defineRcipScope(scope) {
  return scope;
}

export function defineRcipCapability(capability) {
  return capability;
}

export function defineRcipApplication(definition) {
  return definition;
}

function isRecord(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function requireString(value, what, { blankAllowed = true } = {}) {
  if (typeof value !== 'string') throw new ConfigurationError(`${what} must be a string`);
  if (!blankAllowed && value.trim() === '') throw new ConfigurationError(`${what} must not be blank`);
  return value;
}

function requireId(value, what) {
  if (!isIdentifier(value)) throw new ConfigurationError(`${what} is not a valid identifier`);
  return value;
}

/**
 * Checks an application definition (A02) and returns the runtime's catalog:
 * `{ application, scopes, capabilities, byObject }` where `capabilities` are detached copies in
 * declaration order, each with its compiled input validator when usage examples need it, and
 * `byObject` maps each capability object of the definition to its catalog entry.
 * Throws a ConfigurationError for anything B18 names (and for metadata that is not plain JSON:
 * definitions "must not contain handlers, credentials, ... DOM references").
 */
export function checkDefinition(definition) {
  if (!isRecord(definition)) throw new ConfigurationError('the application definition must be an object');
  if (definition.protocolVersion !== RCIP_PROTOCOL_VERSION) {
    throw new ConfigurationError(`protocolVersion must be "${RCIP_PROTOCOL_VERSION}"`);
  }
  const application = definition.application;
  if (!isRecord(application)) throw new ConfigurationError('application must be an object');
  for (const [part, what] of [[application, 'application'], [definition.scopes, 'scopes'], [definition.capabilities, 'capabilities']]) {
    const violation = plainJsonViolation(part);
    if (violation) throw new ConfigurationError(`${what} is not plain JSON data at "${violation.path}" (${violation.reason})`);
  }
  requireId(application.id, 'application.id');
  requireString(application.name, 'application.name');
  requireString(application.description, 'application.description');
  if (application.version !== undefined) requireString(application.version, 'application.version');

  if (!Array.isArray(definition.scopes)) throw new ConfigurationError('scopes must be an array');
  const scopeIds = new Set();
  for (const scope of definition.scopes) {
    if (!isRecord(scope)) throw new ConfigurationError('each scope must be an object');
    requireId(scope.id, 'a scope id');
    if (scopeIds.has(scope.id)) throw new ConfigurationError(`duplicate scope id ${scope.id}`);
    scopeIds.add(scope.id);
    requireString(scope.title, `title of scope ${scope.id}`);
    requireString(scope.description, `description of scope ${scope.id}`);
  }
  for (const scope of definition.scopes) {
    if (scope.parentId === undefined) continue;
    if (!scopeIds.has(scope.parentId)) throw new ConfigurationError(`scope ${scope.id} names an undeclared parent`);
    // A parent chain that loops back has no root: refuse it.
    const visited = new Set([scope.id]);
    for (let parent = scope.parentId; parent !== undefined; parent = definition.scopes.find((s) => s.id === parent).parentId) {
      if (visited.has(parent)) throw new ConfigurationError(`scope ${scope.id} has a cyclic parent chain`);
      visited.add(parent);
    }
  }

  if (!Array.isArray(definition.capabilities)) throw new ConfigurationError('capabilities must be an array');
  const capabilities = [];
  const byObject = new Map();
  const capabilityIds = new Set();
  for (const capability of definition.capabilities) {
    const entry = checkCapability(capability, scopeIds);
    if (capabilityIds.has(entry.id)) throw new ConfigurationError(`duplicate capability id ${entry.id}`);
    capabilityIds.add(entry.id);
    capabilities.push(entry);
    byObject.set(capability, entry);
  }

  return {
    application: pick(application, ['id', 'name', 'description', 'version']),
    scopes: definition.scopes.map((scope) => pick(scope, ['id', 'title', 'description', 'parentId'])),
    capabilities,
    byObject,
  };
}

/** A detached copy of the listed members that are present. */
function pick(record, keys) {
  const out = {};
  for (const key of keys) {
    if (record[key] !== undefined) out[key] = copyJson(record[key]);
  }
  return out;
}

function checkCapability(capability, scopeIds) {
  if (!isRecord(capability)) throw new ConfigurationError('each capability must be an object');
  const id = requireId(capability.id, 'a capability id');
  requireString(capability.title, `title of ${id}`);
  requireString(capability.description, `description of ${id}`);
  if (!Array.isArray(capability.scopeIds)) throw new ConfigurationError(`scopeIds of ${id} must be an array`);
  for (const scopeId of capability.scopeIds) {
    if (!scopeIds.has(scopeId)) throw new ConfigurationError(`${id} names an undeclared scope`);
  }
  if (!EFFECTS.includes(capability.effect)) throw new ConfigurationError(`effect of ${id} must be one of ${EFFECTS.join(', ')}`);
  for (const member of ['inputSchema', 'outputSchema']) {
    const schema = capability[member];
    if (!isRecord(schema) && typeof schema !== 'boolean') throw new ConfigurationError(`${member} of ${id} must be a JSON Schema`);
  }
  if (capability.tags !== undefined) {
    if (!Array.isArray(capability.tags) || capability.tags.some((tag) => typeof tag !== 'string')) {
      throw new ConfigurationError(`tags of ${id} must be an array of strings`);
    }
  }
  const entry = {
    id,
    title: capability.title,
    description: capability.description,
    scopeIds: copyJson(capability.scopeIds),
    effect: capability.effect,
    inputSchema: copyJson(capability.inputSchema),
    outputSchema: copyJson(capability.outputSchema),
    tags: capability.tags === undefined ? [] : copyJson(capability.tags),
  };
  if (capability.usage !== undefined) {
    const usage = capability.usage;
    if (!isRecord(usage)) throw new ConfigurationError(`usage of ${id} must be an object`);
    requireString(usage.whenToUse, `usage.whenToUse of ${id}`, { blankAllowed: false });
    if (usage.examples !== undefined) {
      if (!Array.isArray(usage.examples)) throw new ConfigurationError(`usage.examples of ${id} must be an array`);
      // "Schema compilation happens at binding (or earlier for usage examples)": examples are
      // checked now, against the input schema compiled now.
      const validateInput = usage.examples.length > 0 ? compileSchema(entry.inputSchema, `inputSchema of ${id}`) : undefined;
      for (const example of usage.examples) {
        if (!isRecord(example)) throw new ConfigurationError(`each usage example of ${id} must be an object`);
        requireString(example.description, `a usage example description of ${id}`);
        if (!Object.hasOwn(example, 'input')) throw new ConfigurationError(`a usage example of ${id} has no input`);
        if (validateInput(example.input) !== null) throw new ConfigurationError(`a usage example of ${id} fails its input schema`);
      }
    }
    entry.usage = copyJson(usage);
  }
  return entry;
}
