// The test double plus a scripted `createRcipAssist` (the Assist API lib/assist.mjs drives), NOT an
// orchestrator: it journals what it is given, asks `respond` once in phase `decide`, invokes every
// action of a well-formed batch in order (handing a `confirmation_required` outcome to `confirm`
// with the action's index), asks `respond` once more in phase `summarize`, and returns
// `{ text, outcomes }`. A first message `"explode"` makes runTurn throw synchronously.

import { describe, note } from './double.mjs';

export * from './double.mjs';

export const ASSIST_BATCH_BOUND = 5;

export function createRcipAssist(options) {
  const { client, respond, confirm } = options;
  note('createRcipAssist', {
    members: Object.fromEntries(Object.entries(options).map(([k, v]) => [k, typeof v === 'object' || typeof v === 'function' ? typeof v : describe(v)])),
  });
  return {
    runTurn(request) {
      note('runTurn', {
        keys: Object.keys(request),
        mode: request.mode,
        messages: describe(request.messages),
        signalIsAbortSignal: request.signal instanceof AbortSignal,
      });
      if (request.messages[0] === 'explode') throw new Error('runTurn threw');
      return (async () => {
        const view = (phase, outcomes) => ({ phase, mode: request.mode, snapshot: client.getSnapshot(), messages: request.messages, outcomes });
        const answer = await respond(view('decide', []));
        note('answer', { answer: describe(answer) });
        const actions = answer && answer.actions;
        if (!Array.isArray(actions) || !actions.every((a) => a && typeof a.capabilityId === 'string')) {
          return { text: answer && answer.text, outcomes: [] };
        }
        const outcomes = [];
        for (const [index, action] of actions.entries()) {
          let outcome = await client.invoke({ capabilityId: action.capabilityId, input: action.input });
          if (outcome.status === 'confirmation_required') outcome = await confirm({ outcome, action, index });
          outcomes.push(outcome);
        }
        const summary = await respond(view('summarize', [...outcomes]));
        return { text: summary.text, outcomes };
      })();
    },
  };
}
