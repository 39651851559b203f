// The negotiated catalog (CL-D06): a versioned id `name@semver` and, per component, a props schema
// in the JSON Schema profile of CL-B19 (Ajv 8, JSON Schema 2020-12, strict, no coercion), whether
// it takes children, and which props hold action requests `{ capabilityId, input }`. A catalog
// that breaks this is a host configuration error at creation (PRJ-RUI-CAT-04).

import Ajv2020 from 'ajv/dist/2020.js';

// semver.org 2.0.0, the "name@semver" of CL-D06-1.
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export class ConfigurationError extends Error {}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

let ajv;
function compile(schema) {
  if (ajv === undefined) ajv = new Ajv2020({ strict: true, allErrors: true, coerceTypes: false, useDefaults: false, removeAdditional: false });
  // A schema with an $id is registered by Ajv: give it an instance of its own.
  const instance = JSON.stringify(schema).includes('"$id"')
    ? new Ajv2020({ strict: true, allErrors: true, coerceTypes: false, useDefaults: false, removeAdditional: false })
    : ajv;
  return instance.compile(schema);
}

export function buildCatalog(catalog) {
  if (!isObject(catalog) || typeof catalog.id !== 'string') throw new ConfigurationError('catalog needs an id');
  const at = catalog.id.lastIndexOf('@');
  if (at <= 0 || !SEMVER.test(catalog.id.slice(at + 1))) throw new ConfigurationError('catalog id is not name@semver');
  if (!isObject(catalog.components)) throw new ConfigurationError('catalog needs components');
  const components = new Map();
  for (const [name, component] of Object.entries(catalog.components)) {
    if (!isObject(component)) throw new ConfigurationError(`component ${name} is not an object`);
    const actions = component.actions === undefined ? [] : component.actions;
    if (!Array.isArray(actions) || actions.some((a) => typeof a !== 'string')) throw new ConfigurationError(`component ${name}: actions must be prop names`);
    if (component.children !== undefined && typeof component.children !== 'boolean') throw new ConfigurationError(`component ${name}: children must be a boolean`);
    let validate;
    try {
      validate = compile(component.props === undefined ? {} : component.props);
    } catch (error) {
      throw new ConfigurationError(`component ${name}: props schema outside the strict profile (${error.message})`);
    }
    components.set(name, { validate, children: component.children === true, actions });
  }
  return { id: catalog.id, components };
}

/** Whether `value` is an action request `{ capabilityId: string, input }` (CL-D06-4). */
export function isActionRequest(value) {
  return isObject(value) && typeof value.capabilityId === 'string' && Object.hasOwn(value, 'input');
}

/** The code a node definition fails catalog validation with, or undefined (RUI-INV-07, CL-D06). */
export function checkNode(catalog, node) {
  const component = catalog.components.get(node.component);
  if (component === undefined) return 'UNKNOWN_COMPONENT';
  if (!component.children && node.children.length > 0) return 'CHILDREN_NOT_ALLOWED';
  if (!component.validate(node.props)) return 'PROPS_INVALID';
  for (const prop of component.actions) {
    if (Object.hasOwn(node.props, prop) && !isActionRequest(node.props[prop])) return 'PROPS_INVALID';
  }
  return undefined;
}
