// The React environment of the `react` profile (issue 17): React, react-dom's client and server
// renderers and a jsdom document, loaded once per adapter process when the implementation offers
// the React entry of CLARIFICATIONS A08. Client rendering happens in jsdom under React's `act`
// (IS_REACT_ACT_ENVIRONMENT), the server string comes from `react-dom/server`'s renderToString.
//
// React must be one copy: the implementation's hooks call the React they import, so `react` and
// `react-dom` are resolved from the implementation's React entry first (its peer dependency), and
// from the adapter's own dependencies only when the entry resolves none.
//
// React's own warnings are errors here: every console.error / console.warn whose caller is React
// (a stack frame inside the react, react-dom or scheduler package) still goes to stderr, and is
// also reported through `onWarning`, which turns the step that caused it into an adapter `error`
// (the adapter cannot tell which side made React warn, so it neither passes nor blames). So are
// the errors React reports through createRoot's and hydrateRoot's callbacks that nobody expected,
// and what jsdom reports as its own errors.

import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const adapterRequire = createRequire(import.meta.url);

/** `specifier` resolved from the implementation's React entry, else from the adapter. */
function resolveFrom(entryUrl, specifier) {
  if (entryUrl.startsWith('file:')) {
    try {
      return createRequire(fileURLToPath(entryUrl)).resolve(specifier);
    } catch {
      // The entry does not resolve it: the adapter's own copy below.
    }
  }
  return adapterRequire.resolve(specifier);
}

/** The directory of the package that holds `file` (the nearest node_modules/<name>). */
function packageDirectory(file) {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return path.dirname(file);
  return parts.slice(0, at + 2).join(path.sep);
}

let dom;

/**
 * Makes a jsdom window, and its window, document and navigator globals (react-dom's client needs
 * them when it loads; an implementation that looks for a DOM when its module loads finds one).
 * Once per process. `onWarning(message)` hears what jsdom reports as its own errors.
 */
export function installDom({ log, onWarning }) {
  if (dom !== undefined) return dom;
  const { JSDOM, VirtualConsole } = adapterRequire('jsdom');
  const virtualConsole = new VirtualConsole();
  virtualConsole.on('jsdomError', (error) => onWarning(`jsdom: ${error && error.message}`));
  for (const level of ['error', 'warn', 'info', 'log', 'debug']) {
    virtualConsole.on(level, (...args) => log(`[jsdom console.${level}] ${args.map(String).join(' ')}`));
  }
  dom = new JSDOM('<!doctype html><html><head></head><body></body></html>', { virtualConsole });
  const { window } = dom;
  globalThis.window = window;
  globalThis.document = window.document;
  if (globalThis.navigator === undefined) {
    Object.defineProperty(globalThis, 'navigator', { value: window.navigator, configurable: true, writable: true });
  }
  // Tells React that updates happen inside act() (and to warn about any that does not).
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  return dom;
}

/**
 * Loads React, react-dom's client and server renderers (after installDom) for the React entry at
 * `entryUrl`. `log(message)` writes a stderr line; `onWarning(message)` is called for each React
 * warning or unexpected React/jsdom error.
 */
export function loadReactEnvironment(entryUrl, { log, onWarning }) {
  const requireFrom = (specifier) => adapterRequire(resolveFrom(entryUrl, specifier));
  const { window } = installDom({ log, onWarning });

  const files = {
    react: resolveFrom(entryUrl, 'react'),
    client: resolveFrom(entryUrl, 'react-dom/client'),
    server: resolveFrom(entryUrl, 'react-dom/server'),
  };
  const reactDirectories = [packageDirectory(files.react), packageDirectory(files.client)];
  try {
    reactDirectories.push(packageDirectory(createRequire(files.client).resolve('scheduler')));
  } catch {
    // react-dom without a resolvable scheduler: its frames are already in react-dom's directory.
  }
  captureReactWarnings(reactDirectories, onWarning);

  const React = requireFrom('react');
  const client = requireFrom('react-dom/client');
  const server = requireFrom('react-dom/server');
  log(`React ${React.version} from ${packageDirectory(files.react)}; react-dom from ${packageDirectory(files.client)}`);
  return { React, createRoot: client.createRoot, hydrateRoot: client.hydrateRoot, renderToString: server.renderToString, window, document: window.document };
}

/** Wraps console.error and console.warn: a call made by React is also a warning. */
function captureReactWarnings(directories, onWarning) {
  const prefixes = directories.map((dir) => dir + path.sep);
  for (const level of ['error', 'warn']) {
    const original = console[level];
    console[level] = function reactAwareConsole(...args) {
      original.apply(console, args);
      const holder = {};
      Error.captureStackTrace(holder, reactAwareConsole);
      if (calledByReact(String(holder.stack), prefixes)) onWarning(`React console.${level}: ${formatConsole(args)}`);
    };
  }
}

/**
 * Whether the immediate caller of console (the first stack frame) is React's code. Not any frame:
 * an implementation's hook that logs is called by React too, and what it prints is its own.
 */
function calledByReact(stack, prefixes) {
  const first = stack.split('\n').find((line) => line.trimStart().startsWith('at '));
  if (first === undefined) return false;
  return prefixes.some((prefix) => first.includes(prefix));
}

/** console's %s / %d / %o substitutions, enough to read React's messages in one line. */
function formatConsole(args) {
  if (args.length === 0) return '';
  const [first, ...rest] = args;
  let text = String(first);
  if (typeof first === 'string') {
    text = first.replace(/%[sdifoOc]/g, (token) => {
      if (rest.length === 0) return token;
      const value = rest.shift();
      return token === '%c' ? '' : String(value);
    });
  }
  const tail = rest.map((value) => String(value)).join(' ');
  return (tail === '' ? text : `${text} ${tail}`).split('\n')[0].slice(0, 500);
}
