// The subject's React entry (CLARIFICATIONS A08; React 18 or later, a peer dependency): RcipProvider,
// useRcipClient, useRcipSnapshot, useRcipContext and useRcipCapability, written from the texts:
//
// - RCIP-PROTO "Runtime surfaces": "React host code uses RcipProvider, useRcipContext, and
//   useRcipCapability. Consumer UI can use useRcipClient or receive a client directly."
// - RCIP-LIFE "Definitions and bindings": "Strict Mode effect setup/cleanup is supported. React
//   bindings update handlers after committed renders, so an abandoned render does not publish
//   speculative behavior." So nothing here writes a ref or calls the runtime during render: the
//   handler a binding reaches is the one of the last committed render, copied in a layout effect
//   (the first moment after commit), and binding, unbinding and context publication are effects
//   with cleanups, which Strict Mode runs setup -> cleanup -> setup.
// - RCIP-LIFE "Context and availability": "Use one mounted useRcipContext owner per runtime. Nested
//   owners do not merge: they overwrite context, and unmount clears it." and "Handlers and
//   availability checks use current committed React state".
// - RCIP-LIFE "SSR and hydration": "React effects bind capabilities only after hydration": a server
//   render runs no effect, so the server snapshot is unbound.
//
// The core entry (index.mjs) does not import this file: the runtime works without React.

import {
  createContext, createElement, useContext, useEffect, useLayoutEffect, useMemo, useRef, useSyncExternalStore,
} from 'react';

/** The context's default value: a hook that reads it is outside every RcipProvider. */
const NO_PROVIDER = Symbol('no RcipProvider');
const RuntimeContext = createContext(NO_PROVIDER);
/** No revision seen yet: the binding's first one does not refresh (binding reads availability). */
const UNSEEN = Symbol('no revision seen');

/**
 * Layout effects run right after commit, before passive effects; the server runs neither (and
 * React 18 warns about useLayoutEffect there), so outside a DOM the passive effect stands in.
 */
const useCommitEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/** A08: `{ runtime, children }`, one runtime for the hooks below it. */
export function RcipProvider({ runtime, children }) {
  return createElement(RuntimeContext.Provider, { value: runtime }, children);
}

function useRuntime(hook) {
  const runtime = useContext(RuntimeContext);
  if (runtime === NO_PROVIDER) throw new Error(`${hook} must be used inside an RcipProvider`);
  if (runtime === null || typeof runtime !== 'object') throw new TypeError(`${hook}: RcipProvider needs a runtime ({ client, host })`);
  return runtime;
}

/** A08: the provider's runtime's client. */
export function useRcipClient() {
  return useRuntime('useRcipClient').client;
}

/** A08: the current snapshot; re-renders when it changes (getSnapshot keeps its identity until then). */
export function useRcipSnapshot() {
  const { client } = useRuntime('useRcipSnapshot');
  const subscribe = useMemo(() => (listener) => client.subscribe(listener), [client]);
  const read = useMemo(() => () => client.getSnapshot(), [client]);
  return useSyncExternalStore(subscribe, read, read);
}

/** B06: a context is compared by value (ordered scope list and primary scope). */
function contextKey(context) {
  const ids = context !== null && typeof context === 'object' ? context.activeScopeIds : undefined;
  const primary = context !== null && typeof context === 'object' ? context.primaryScopeId : undefined;
  return JSON.stringify([Array.isArray(ids) ? ids : null, primary === undefined ? null : [primary]]);
}

/**
 * A08: publishes `context` through host.setContext while the component is mounted, and clears it
 * (`{ activeScopeIds: [] }`) when it unmounts. A new value republishes without clearing first; a
 * nested owner overwrites whatever was published last, and its unmount clears (RCIP-LIFE-CTX-06).
 */
export function useRcipContext(context) {
  const { host } = useRuntime('useRcipContext');
  const key = contextKey(context);
  useEffect(() => () => host.setContext({ activeScopeIds: [] }), [host]);
  // `context` is the value of the render that committed this key; a new object with the same value
  // is not a new context (B06), so it does not republish.
  useEffect(() => {
    host.setContext(context);
  }, [host, key]);
}

/**
 * A08: binds `definition` with `binding` ({ execute, getAvailability?, revision? }) while the
 * component is mounted and unbinds at unmount; refreshes when `revision` changes. The runtime gets
 * one stable handler object whose methods call the binding of the last committed render.
 */
export function useRcipCapability(definition, binding) {
  const { host } = useRuntime('useRcipCapability');
  const committed = useRef(binding);
  useCommitEffect(() => {
    committed.current = binding;
  });
  const hasAvailability = binding !== null && typeof binding === 'object' && binding.getAvailability !== undefined;
  useEffect(() => {
    const handler = {
      execute: (input, ctx) => committed.current.execute(input, ctx),
    };
    // An optional member is given only when the host gave it: an absent getAvailability means
    // "available", and the runtime, not this binding, decides what that publishes.
    if (hasAvailability) handler.getAvailability = () => committed.current.getAvailability();
    return host.bindCapability(definition, handler);
  }, [host, definition, hasAvailability]);
  const revision = binding !== null && typeof binding === 'object' ? binding.revision : undefined;
  const seenRevision = useRef(UNSEEN);
  useEffect(() => {
    const first = seenRevision.current === UNSEEN;
    const changed = !first && !Object.is(seenRevision.current, revision);
    seenRevision.current = revision;
    if (changed) host.refresh();
  }, [host, revision]);
}
