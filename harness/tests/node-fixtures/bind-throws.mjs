// A JavaScript RCIP implementation with one bug (issue 27 §4, tests/node_stderr.rs): the
// JavaScript subject, whose `bindCapability` deep-clones the host's availability answer first and
// throws a named error when it cannot (a function member): `class DataCloneError extends Error`,
// which keeps the name `Error`, as such classes often do. The Node adapter must log the class's
// name and the message, and the harness must show them under each failing case.

import { createRcipRuntime as subjectRuntime } from '../../node/subject/index.mjs';

export {
  RCIP_PROTOCOL_VERSION, defineRcipApplication, defineRcipCapability, defineRcipScope,
} from '../../node/subject/index.mjs';

class DataCloneError extends Error {}

export function createRcipRuntime(definition, options) {
  const runtime = options === undefined ? subjectRuntime(definition) : subjectRuntime(definition, options);
  const bindCapability = runtime.host.bindCapability;
  runtime.host.bindCapability = (capability, handler) => {
    if (handler !== null && typeof handler === 'object' && typeof handler.getAvailability === 'function') {
      throw new DataCloneError(`${capability.id}: the availability answer could not be cloned`);
    }
    return bindCapability(capability, handler);
  };
  return runtime;
}
