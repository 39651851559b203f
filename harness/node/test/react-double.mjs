// A second, deliberately different React entry (CLARIFICATIONS A08) for the adapter's tests and
// for the fault check of .ci/run (test/react-faults.sh): correct, but written otherwise than the
// subject's (context published and cleared by one effect keyed on the context object, the handler
// ref copied in a passive effect), so the react vectors are seen to pass more than one reading.
// RCIP_REACT_DOUBLE names one defect to plant:
//   ref-in-render       the handler ref is written during render (RCIP-LIFE-BIND-06 forbids it: an
//                       abandoned render publishes its handler);
//   bind-in-render      binds during render (once per instance), not in an effect (SSR-04, BIND-05);
//   no-unbind           the binding effect has no cleanup (CL-A08-5, BIND-05);
//   no-context-clear    useRcipContext publishes but never clears (RCIP-LIFE-CTX-06);
//   stale-availability  getAvailability answers the availability of the render that bound
//                       (RCIP-LIFE-AVAIL-02);
//   no-refresh          a revision change does not call host.refresh() (CL-A08-5);
//   keyless-children    RcipProvider renders a list child without a key (React warns).

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
  const withAvailability = typeof binding.getAvailability === 'function';
  const bound = useRef(undefined);
  const makeHandler = () => {
    const handler = { execute: (input, ctx) => latest.current.execute(input, ctx) };
    if (withAvailability) {
      const first = binding.getAvailability;
      handler.getAvailability = BUG === 'stale-availability' ? () => first() : () => latest.current.getAvailability();
    }
    return handler;
  };
  if (BUG === 'bind-in-render' && bound.current === undefined) bound.current = host.bindCapability(definition, makeHandler());
  useEffect(() => {
    if (BUG === 'bind-in-render') return undefined;
    const unbind = host.bindCapability(definition, makeHandler());
    return BUG === 'no-unbind' ? undefined : unbind;
    // makeHandler reads the ref; the binding is remade only for another host or definition.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [host, definition, withAvailability]);
  const lastRevision = useRef(NONE);
  useEffect(() => {
    const before = lastRevision.current;
    lastRevision.current = binding.revision;
    if (before !== NONE && before !== binding.revision && BUG !== 'no-refresh') host.refresh();
  }, [host, binding.revision]);
}
