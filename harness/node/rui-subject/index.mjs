// A Rixx UI 0.1 consumer written from the spec text and CLARIFICATIONS section D (see README.md),
// exporting the project's JavaScript consumer surface (harness/node/README.md, "Rixx UI consumer
// surface"): createRuiConsumer, RUI_FRAMINGS, RUI_LIMITS.

import { RuiConsumer } from './lib/consumer.mjs';
import { DEFAULT_LIMITS } from './lib/limits.mjs';

/** Every transport of the spec's "Framing" section. */
export const RUI_FRAMINGS = Object.freeze(['jsonl', 'sse', 'websocket', 'json-seq']);

/** The bounds this consumer runs under unless it is given others. */
export const RUI_LIMITS = DEFAULT_LIMITS;

/**
 * A consumer of one stream: `{ catalog, framing, limits? }`. Throws when the catalog is not a
 * valid catalog (a host configuration error, PRJ-RUI-CAT-04).
 */
export function createRuiConsumer({ catalog, framing, limits } = {}) {
  if (!RUI_FRAMINGS.includes(framing)) throw new TypeError('framing must be one of jsonl, sse, websocket, json-seq');
  return new RuiConsumer({ catalog, framing, limits });
}
