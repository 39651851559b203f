// A JavaScript RCIP implementation whose `bindCapability` always refuses with a named error
// (issue 27 §3, tests/node_step_ids.rs): `class BindRefused extends Error` with its own `name`.
// Every case that binds then fails; the harness must show each failing step's own requirement ids
// with their sentences, and under them the adapter's stderr line naming the error and its message.

import { createRcipRuntime as subjectRuntime } from '../../node/subject/index.mjs';

export {
  RCIP_PROTOCOL_VERSION, defineRcipApplication, defineRcipCapability, defineRcipScope,
} from '../../node/subject/index.mjs';

class BindRefused extends Error {
  name = 'BindRefused';
}

export function createRcipRuntime(definition, options) {
  const runtime = options === undefined ? subjectRuntime(definition) : subjectRuntime(definition, options);
  runtime.host.bindCapability = (capability) => {
    throw new BindRefused(`${capability.id} may not be bound by this host`);
  };
  return runtime;
}
