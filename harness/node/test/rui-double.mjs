// A scripted test double of the Rixx UI consumer surface (README "Rixx UI consumer surface"): not a
// consumer. It records every call it receives, with the bytes as hex, so test/rui.test.mjs can
// check what lib/rui.mjs hands the consumer and that observations are the consumer's own answers.

export const RUI_FRAMINGS = ['jsonl', 'websocket'];
export const RUI_LIMITS = { maxIdLength: 64, maxStringLength: 1024, maxArrayLength: 64, maxDepth: 16, maxOperations: 64, maxTransactionBytes: 65536 };

const hex = (bytes) => Buffer.from(bytes).toString('hex');

export function createRuiConsumer(options) {
  if (options.catalog.id === 'throws') throw new Error('bad catalog');
  if (options.limits !== undefined && options.limits.maxDepth > 1000) {
    throw Object.assign(new Error('too deep for me'), { code: 'RUI_LIMITS_UNSUPPORTED' });
  }
  const calls = [{ call: 'create', framing: options.framing, limits: options.limits ?? null, catalogId: options.catalog.id }];
  let policy;
  return {
    write(bytes) { calls.push({ call: 'write', hex: hex(bytes), isBytes: bytes instanceof Uint8Array }); },
    receiveMessage(bytes) { calls.push({ call: 'message', hex: hex(bytes) }); },
    end() { calls.push({ call: 'end' }); },
    getSnapshot() { return { revision: 3, root: 'r', nodes: { r: { component: 'Stack', props: { calls }, children: [] } }, data: { b: 1, a: 2 } }; },
    getTransactions() { return [{ transactionId: 't', result: 'rejected', code: 'OWN_CODE' }]; },
    getQuarantine() { return [{ frame: 1, code: 'Q' }]; },
    getRejections() { return [{ frame: 2, code: 'R' }]; },
    getFrameCount() { return 3; },
    setActionPolicy(p) { calls.push({ call: 'setActionPolicy' }); policy = p; },
    async dispatchAction(node, prop) {
      calls.push({ call: 'dispatch', node, prop });
      const decision = await policy({ node, prop, capabilityId: 'notes.open', input: { id: 1 } });
      return { status: 'decided', decision };
    },
  };
}
