// The subject's public entry: the RCIP 2.x API of CLARIFICATIONS A01 (protocol 1.0) and the
// Assist orchestrator of section C. See README.md: this runtime exists to test the conformance
// suite and to show implementers a readable implementation; it is not the product.

export {
  RCIP_PROTOCOL_VERSION, defineRcipApplication, defineRcipCapability, defineRcipScope,
} from './lib/definition.mjs';
export { createRcipRuntime } from './lib/runtime.mjs';
export { ConfigurationError as RcipConfigurationError } from './lib/errors.mjs';
export { ASSIST_DEFAULT_BATCH_BOUND, ASSIST_DEFAULT_DELAYS, createRcipAssist } from './lib/assist.mjs';
