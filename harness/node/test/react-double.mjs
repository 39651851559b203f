// A React entry (CLARIFICATIONS A08) for the adapter's tests, with one chosen defect named by the
// environment variable RCIP_REACT_DOUBLE:
//   ref-in-render     useRcipCapability writes the handler ref during render (the binding bug
//                     RCIP-LIFE-BIND-06 forbids: an abandoned render publishes its handler);
//   keyless-children  RcipProvider renders a list child without a key (React warns);
//   bind-in-render    useRcipCapability binds during render (once per instance, kept in a ref);
//   no-unbind         the binding effect has no cleanup;
//   no-context-clear  useRcipContext publishes but never clears.
// Otherwise it is a plain binding: bind, context in effects; it passes no getAvailability and
// ignores revision (the vectors on availability fail it, which the tests do not run).

import {
  createContext, createElement, Fragment, useContext, useEffect, useRef, useSyncExternalStore,
} from 'react';

const BUG = process.env.RCIP_REACT_DOUBLE;
const NONE = Symbol('none');
const Runtime = createContext(NONE);

export function RcipProvider({ runtime, children }) {
  const inner = BUG === 'keyless-children' ? [createElement('span', null), children] : children;
  return createElement(Runtime.Provider, { value: runtime }, createElement(Fragment, null, inner));
}

function useRuntime() {
  const runtime = useContext(Runtime);
  if (runtime === NONE) throw new Error('outside RcipProvider');
  return runtime;
}

export function useRcipClient() {
  return useRuntime().client;
}

export function useRcipSnapshot() {
  const { client } = useRuntime();
  return useSyncExternalStore(client.subscribe, client.getSnapshot, client.getSnapshot);
}

export function useRcipContext(context) {
  const { host } = useRuntime();
  useEffect(() => {
    host.setContext(context);
    if (BUG === 'no-context-clear') return undefined;
    return () => host.setContext({ activeScopeIds: [] });
  }, [host, context]);
}

export function useRcipCapability(definition, binding) {
  const { host } = useRuntime();
  const latest = useRef(binding);
  if (BUG === 'ref-in-render') latest.current = binding;
  useEffect(() => {
    latest.current = binding;
  });
  const handler = { execute: (input, ctx) => latest.current.execute(input, ctx) };
  const bound = useRef(undefined);
  if (BUG === 'bind-in-render' && bound.current === undefined) bound.current = host.bindCapability(definition, handler);
  useEffect(() => {
    if (BUG === 'bind-in-render') return undefined;
    const unbind = host.bindCapability(definition, handler);
    return BUG === 'no-unbind' ? undefined : unbind;
    // The handler object is made once per binding: its execute reads the ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [host, definition]);
}
