// A React entry (CLARIFICATIONS A08) for the adapter's tests, with one chosen defect named by the
// environment variable RCIP_REACT_DOUBLE:
//   ref-in-render     useRcipCapability writes the handler ref during render (the binding bug
//                     RCIP-LIFE-BIND-06 forbids: an abandoned render publishes its handler);
//   keyless-children  RcipProvider renders a list child without a key (React warns).
// Otherwise it is a plain correct binding: bind, context and refresh in effects.

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
  useEffect(() => host.bindCapability(definition, {
    execute: (input, ctx) => latest.current.execute(input, ctx),
  }), [host, definition]);
}
