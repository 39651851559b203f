// The `react` profile of vectors/README.md ("React host"): the abstract component tree of a case
// becomes real React components over the implementation's React entry (CLARIFICATIONS A08:
// RcipProvider, useRcipContext, useRcipCapability, useRcipClient, useRcipSnapshot), rendered by
// react-dom into a jsdom container (createRoot, hydrateRoot) or to a string (renderToString).
// Covers the steps `react: render | resolve | unmount | server-render | hydrate`, `setup.react`
// and the observations handler-states, boundary, hook-client and hook-snapshot; the adapter runs
// each step inside React's act (adapter.mjs), so what it causes is committed before the answer.
//
// Every function a capability element hands to useRcipCapability is made in that render and reads
// that render's state: which render's `execute` runs is what the implementation decides
// (RCIP-LIFE-BIND-06, RCIP-LIFE-AVAIL-02), never the adapter. Values keep their identity while
// their JSON is unchanged, as a real application's stable objects do.

import { AdapterError, canonical, fail, fromWire, toWireOptional } from './values.mjs';

/** The exports of the A08 React entry. */
export const REACT_SURFACE = ['RcipProvider', 'useRcipContext', 'useRcipCapability', 'useRcipClient', 'useRcipSnapshot'];

/** The names of REACT_SURFACE a module does not export as functions. */
export function missingReactSurface(module) {
  return REACT_SURFACE.filter((name) => typeof module[name] !== 'function');
}

const ELEMENT_MEMBERS = {
  provider: { required: [], optional: ['runtime', 'children'] },
  'context-owner': { required: ['context'], optional: ['children'] },
  capability: { required: ['capability', 'state', 'handler'], optional: ['availability', 'revision', 'children'] },
  boundary: { required: [], optional: ['children'] },
  throw: { required: [], optional: [] },
  suspend: { required: ['on'], optional: [] },
  'client-user': { required: [], optional: [] },
  'snapshot-user': { required: [], optional: [] },
};

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The error a `throw` element throws in every render (never the implementation's). */
class ThrowElementError extends Error {}

/**
 * The React side of one case. `rcipCase` is the RcipCase (runtimes, catalog, handler callbacks),
 * `env` the loaded React environment (react-env.mjs), `entry` the implementation's React entry.
 */
export class ReactHost {
  constructor(rcipCase, env, entry, setup) {
    if (setup !== undefined) {
      if (!isObject(setup)) fail('setup.react must be an object');
      for (const key of Object.keys(setup)) if (key !== 'strictMode') fail(`setup.react has an unexpected member ${JSON.stringify(key)}`);
      if (setup.strictMode !== undefined && typeof setup.strictMode !== 'boolean') fail('setup.react.strictMode must be a boolean');
    }
    this.rcipCase = rcipCase;
    this.env = env;
    this.entry = entry;
    this.strictMode = setup !== undefined && setup.strictMode === true;
    this.root = undefined;
    this.container = undefined;
    this.markup = undefined;
    /** Promises of `suspend` elements by name: { promise, resolve, resolved }. */
    this.promises = new Map();
    /** handler-states records, in call order. */
    this.handlerStates = [];
    /** Boundaries mounted now, by key: the instance. */
    this.boundaries = new Map();
    /** What hook users returned in their last committed render, by key. */
    this.committed = new Map();
    /** Errors React reported as uncaught during the current step. */
    this.uncaught = [];
    this.components = this.makeComponents();
  }

  // ----------------------------------------------------------------------------------------------
  // Steps
  // ----------------------------------------------------------------------------------------------

  /** `react` steps; each runs inside act (the adapter's answer loop), so React commits before it returns. */
  step(step) {
    switch (step.react) {
      case 'render': return this.render(step);
      case 'resolve': {
        if (typeof step.on !== 'string') fail('resolve needs a promise name in on');
        const entry = this.promise(step.on);
        entry.resolved = true;
        entry.resolve();
        return { reply: 'done' };
      }
      case 'unmount': {
        if (this.root === undefined) fail('unmount before any render or hydrate');
        this.dispose();
        return { reply: 'done' };
      }
      case 'server-render': return this.serverRender(step);
      case 'hydrate': return this.hydrate(step);
      default: return fail(`unknown step react: ${JSON.stringify(step.react)}`);
    }
  }

  /**
   * What a step answers once act has committed: a `react` step (`reactStep`) during which React
   * reported an uncaught error answers `threw`; for any other step the error is only logged.
   */
  conclude(reply, reactStep) {
    const uncaught = this.uncaught;
    this.uncaught = [];
    for (const error of uncaught) this.rcipCase.hooks.log(`React reported an uncaught error: ${describe(error)}`);
    return reactStep && uncaught.length > 0 && reply.reply === 'done' ? { reply: 'threw' } : reply;
  }

  rootOptions() {
    const log = this.rcipCase.hooks.log;
    return {
      // A boundary of the tree caught it: that is the case's own doing (a `throw` element, a hook
      // outside a provider), observed through `boundary`, not a warning.
      onCaughtError: (error) => log(`a boundary caught: ${describe(error)}`),
      onUncaughtError: (error) => this.uncaught.push(error),
      // Recoverable errors are hydration mismatches and the like: React warns, so the step errors.
      onRecoverableError: (error) => this.rcipCase.hooks.fault(`React recoverable error: ${describe(error)}`),
    };
  }

  render(step) {
    if (step.transition !== undefined && typeof step.transition !== 'boolean') fail('render transition must be a boolean');
    const element = this.clientTree(step.tree);
    const { React } = this.env;
    if (this.root === undefined) {
      this.container = this.env.document.createElement('div');
      this.env.document.body.appendChild(this.container);
      this.root = this.env.createRoot(this.container, this.rootOptions());
    }
    const root = this.root;
    if (step.transition === true) React.startTransition(() => root.render(element));
    else root.render(element);
    return { reply: 'done' };
  }

  serverRender(step) {
    const element = this.tree(step.tree, new Map());
    try {
      this.markup = this.env.renderToString(element);
    } catch (error) {
      if (error instanceof AdapterError) throw error;
      this.rcipCase.hooks.log(`renderToString threw: ${describe(error)}`);
      this.markup = undefined;
      return { reply: 'threw' };
    }
    return { reply: 'done' };
  }

  hydrate(step) {
    if (this.markup === undefined) fail('hydrate needs the markup of an earlier server-render');
    if (this.root !== undefined) this.dispose();
    const element = this.clientTree(step.tree);
    this.container = this.env.document.createElement('div');
    this.container.innerHTML = this.markup;
    this.env.document.body.appendChild(this.container);
    this.root = this.env.hydrateRoot(this.container, element, this.rootOptions());
    return { reply: 'done' };
  }

  /** Unmounts the client root (a step, or the end of the case); call inside act. */
  dispose() {
    if (this.root === undefined) return;
    const root = this.root;
    this.root = undefined;
    this.memo = undefined;
    root.unmount();
    this.container.remove();
    this.container = undefined;
  }

  promise(name) {
    if (!this.promises.has(name)) {
      const entry = { resolved: false, resolve: undefined, promise: undefined };
      entry.promise = new Promise((resolve) => {
        entry.resolve = resolve;
      });
      this.promises.set(name, entry);
    }
    return this.promises.get(name);
  }

  // ----------------------------------------------------------------------------------------------
  // Observations
  // ----------------------------------------------------------------------------------------------

  observe(key, step) {
    switch (key) {
      case 'expect:handler-states':
        return step.capability === undefined
          ? this.handlerStates
          : this.handlerStates.filter((record) => record.capabilityId === step.capability);
      case 'expect:boundary': {
        const boundary = this.boundaries.get(elementKey(step.key));
        if (boundary === undefined) return 'none';
        return boundary.state.caught ? 'caught' : 'clear';
      }
      case 'expect:hook-client': {
        const name = elementKey(step.key);
        if (!this.committed.has(name)) return 'none';
        const client = this.committed.get(name);
        for (const [handle, rt] of this.rcipCase.runtimes) {
          if (rt.client === client) return handle === '' ? 'setup' : handle;
        }
        return 'other';
      }
      case 'expect:hook-snapshot': {
        const name = elementKey(step.key);
        if (!this.committed.has(name)) return 'none';
        return toWireOptional(this.committed.get(name));
      }
      default: return fail(`unknown expectation ${key}`);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // The tree
  // ----------------------------------------------------------------------------------------------

  /** A client root's element: Strict Mode per setup.react, values memoised across its renders. */
  clientTree(tree) {
    if (this.memo === undefined) this.memo = new Map();
    const element = this.tree(tree, this.memo);
    return this.strictMode ? this.env.React.createElement(this.env.React.StrictMode, null, element) : element;
  }

  /** Checks the tree (kinds, members, unique keys) and builds the React elements. */
  tree(tree, memo) {
    const keys = new Set();
    return this.children(tree, { memo, keys, runtime: '' });
  }

  children(tree, scope) {
    if (tree === undefined) return null;
    const list = Array.isArray(tree) ? tree : [tree];
    // Children are always an array of keyed elements, so `key` alone names a component instance
    // under its parent, whether the parent has one child or several.
    return list.map((spec) => this.element(spec, scope));
  }

  element(spec, scope) {
    if (!isObject(spec)) fail('a tree element must be an object');
    const members = ELEMENT_MEMBERS[spec.kind];
    if (members === undefined) fail(`unknown element kind ${JSON.stringify(spec.kind)}`);
    const key = elementKey(spec.key);
    if (scope.keys.has(key)) fail(`element key ${JSON.stringify(key)} appears twice in one tree`);
    scope.keys.add(key);
    for (const name of Object.keys(spec)) {
      if (!['kind', 'key', ...members.required, ...members.optional].includes(name)) {
        fail(`element ${spec.kind} has an unexpected member ${JSON.stringify(name)}`);
      }
    }
    for (const name of members.required) if (!Object.hasOwn(spec, name)) fail(`element ${spec.kind} needs ${JSON.stringify(name)}`);
    const h = this.env.React.createElement;
    const C = this.components;
    const stable = (member) => this.stable(scope.memo, key, member, spec[member]);
    switch (spec.kind) {
      case 'provider': {
        const runtime = spec.runtime === undefined ? '' : spec.runtime;
        if (!this.rcipCase.runtimes.has(runtime)) fail(`no runtime named ${JSON.stringify(runtime)} in this case`);
        const inner = { ...scope, runtime };
        return h(C.provider, { key, name: key, runtime, children: this.children(spec.children, inner) });
      }
      case 'context-owner':
        return h(C.contextOwner, { key, name: key, context: stable('context'), children: this.children(spec.children, scope) });
      case 'capability': {
        if (typeof spec.capability !== 'string') fail('capability element needs a capability id');
        const definition = this.rcipCase.catalogCapability(spec.capability);
        const handler = this.rcipCase.checkHandler(spec.handler, ['returns-state']);
        if (Object.hasOwn(spec, 'revision') && spec.revision !== null && typeof spec.revision === 'object') {
          fail('revision must be a JSON primitive');
        }
        return h(C.capability, {
          key,
          name: key,
          runtime: scope.runtime,
          capabilityId: spec.capability,
          definition,
          handler,
          wireState: spec.state,
          state: stable('state'),
          hasAvailability: Object.hasOwn(spec, 'availability'),
          availability: Object.hasOwn(spec, 'availability') ? stable('availability') : undefined,
          hasRevision: Object.hasOwn(spec, 'revision'),
          revision: Object.hasOwn(spec, 'revision') ? stable('revision') : undefined,
          children: this.children(spec.children, scope),
        });
      }
      case 'boundary':
        return h(C.boundary, { key, name: key, children: this.children(spec.children, scope) });
      case 'throw':
        return h(C.thrower, { key, name: key });
      case 'suspend': {
        if (typeof spec.on !== 'string' || spec.on === '') fail('suspend needs a promise name in on');
        return h(C.suspender, { key, name: key, entry: this.promise(spec.on) });
      }
      case 'client-user':
        return h(C.clientUser, { key, name: key });
      case 'snapshot-user':
        return h(C.snapshotUser, { key, name: key });
      default:
        return fail(`unknown element kind ${JSON.stringify(spec.kind)}`);
    }
  }

  /** The same object as in this root's previous render when the JSON is equal, else a new one. */
  stable(memo, key, member, wire) {
    const slot = `${key}\u0000${member}`;
    const text = JSON.stringify(canonical(wire));
    const previous = memo.get(slot);
    if (previous !== undefined && previous.text === text) return previous.value;
    const value = fromWire(wire);
    memo.set(slot, { text, value });
    return value;
  }

  /** One component per element kind, made once per case so React keeps instances across renders. */
  makeComponents() {
    const { React } = this.env;
    const h = React.createElement;
    const entry = this.entry;
    const host = this;
    const markup = (kind, name, children) => h('div', { 'data-kind': kind, 'data-key': name }, children);

    function provider({ name, runtime, children }) {
      return h(entry.RcipProvider, { runtime: host.rcipCase.runtimes.get(runtime).runtime }, markup('provider', name, children));
    }

    function contextOwner({ name, context, children }) {
      entry.useRcipContext(context);
      return markup('context-owner', name, children);
    }

    function capability(props) {
      const { name, runtime, capabilityId, definition, handler, wireState, state, children } = props;
      // Made in this render, reading this render's state (what a component's closures do).
      const binding = {
        execute: (input, ctx) => host.execute(runtime, capabilityId, handler, wireState, state, input, ctx),
      };
      if (props.hasAvailability) {
        const { availability } = props;
        binding.getAvailability = () => {
          host.rcipCase.hooks.activity();
          return availability;
        };
      }
      if (props.hasRevision) binding.revision = props.revision;
      entry.useRcipCapability(definition, binding);
      return markup('capability', name, children);
    }

    class boundary extends React.Component {
      constructor(props) {
        super(props);
        this.state = { caught: false };
      }

      static getDerivedStateFromError() {
        return { caught: true };
      }

      componentDidMount() {
        host.boundaries.set(this.props.name, this);
      }

      componentWillUnmount() {
        if (host.boundaries.get(this.props.name) === this) host.boundaries.delete(this.props.name);
      }

      render() {
        // It never resets: once it caught, it renders nothing.
        return this.state.caught ? null : markup('boundary', this.props.name, this.props.children);
      }
    }

    function thrower({ name }) {
      throw new ThrowElementError(`throw element ${name}`);
    }

    function suspender({ entry: promise }) {
      // use() on every render (React asks for it unconditionally); before React 19, a thrown
      // promise while it is pending.
      if (typeof React.use === 'function') React.use(promise.promise);
      else if (!promise.resolved) throw promise.promise;
      return null;
    }

    function clientUser({ name }) {
      const client = entry.useRcipClient();
      React.useEffect(() => {
        host.committed.set(name, client);
      });
      return markup('client-user', name, null);
    }

    function snapshotUser({ name }) {
      const snapshot = entry.useRcipSnapshot();
      React.useEffect(() => {
        host.committed.set(name, snapshot);
      });
      return markup('snapshot-user', name, null);
    }

    return { provider, contextOwner, capability, boundary, thrower, suspender, clientUser, snapshotUser };
  }

  /** A capability element's execute: records the state of its render, then behaves as its handler. */
  execute(runtime, capabilityId, handler, wireState, state, input, ctx) {
    this.rcipCase.hooks.activity();
    this.handlerStates.push({ capabilityId, state: wireState });
    const rt = this.rcipCase.runtimes.get(runtime);
    if (handler.mode === 'returns-state') {
      this.rcipCase.recordHandlerCall(rt, capabilityId, input, ctx);
      return { state };
    }
    return this.rcipCase.runHandler(rt, capabilityId, handler, input, ctx);
  }
}

function elementKey(key) {
  if (typeof key !== 'string' || key === '') fail('an element key must be a non-empty string');
  return key;
}

function describe(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return String(error);
  } catch {
    return 'an unprintable value';
  }
}
