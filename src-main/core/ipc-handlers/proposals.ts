/** The waiting changes' channels: what waits for the person, and their answer. */
import type { RequestArgs, RequestResults } from '../../../src-shared/ipc-contract.ts';
import type { PendingProposals } from '../approvals/pending-proposals.ts';

export function proposalHandlers(proposals: PendingProposals) {
  return {
    'proposals:list': (): Promise<RequestResults['proposals:list']> => Promise.resolve(proposals.list()),
    'proposals:answer': (
      input: RequestArgs<'proposals:answer'>,
    ): Promise<RequestResults['proposals:answer']> => proposals.answer(input.id, input.answer),
  };
}
