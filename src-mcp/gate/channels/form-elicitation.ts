/**
 * The client's form elicitation, in both eras: on 2026-07-28 the call answers `input_required`
 * and the client asks and retries with the answer; on 2025-11-25 the SDK sends
 * `elicitation/create` itself and re-enters the call with the answer.
 */
import { inputRequired, inputResponse, type ClientCapabilities } from '@modelcontextprotocol/server';
import type { ConsentChannel } from './channel.ts';

/** The key of the one input request; the retried call carries the answer under it. */
const ANSWER_KEY = 'confirm';

/** Form mode: `elicitation: {}` (2025-06-18 and earlier clients), or an explicit `form`. */
export function declaresFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

export const formElicitation: ConsentChannel = {
  name: 'elicit',
  serves: ({ capabilities }) => declaresFormElicitation(capabilities),
  answer({ inputResponses }) {
    const answer = inputResponse(inputResponses, ANSWER_KEY);
    return answer.kind === 'elicit' ? answer.action : undefined;
  },
  reach: ({ question, shown }) => ({
    kind: 'ask',
    question,
    shown,
    // A form with nothing to fill in: the question is the message.
    reply: inputRequired({
      inputRequests: {
        [ANSWER_KEY]: inputRequired.elicit({
          message: question,
          requestedSchema: { type: 'object', properties: {} },
        }),
      },
    }),
  }),
};
