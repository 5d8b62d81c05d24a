import { requestChannels } from '../../src-shared/constants.ts';
import {
  requests,
  type RequestChannel,
  type RequestHandlers,
  type RequestResults,
} from '../../src-shared/ipc-contract.ts';
import { LocalApiError } from '../../src-shared/local-api/index.ts';
import { CoreError } from './core-error.ts';

/** What the shell and the preview call: any input, checked before the channel's handler sees it. */
export type CoreHandlers = {
  [C in RequestChannel]: (input: unknown) => Promise<RequestResults[C]>;
};

/**
 * Wraps each channel's implementation: the input is validated with the contract's zod schema first,
 * and a Local API failure becomes a CoreError the renderer can explain. `impl` is typed per channel,
 * so a handler answering the wrong type does not compile.
 */
export function validatedHandlers(impl: RequestHandlers): CoreHandlers {
  const handlers: Partial<Record<RequestChannel, (input: unknown) => Promise<unknown>>> = {};
  for (const channel of requestChannels) handlers[channel] = validated(channel, impl);
  return handlers as CoreHandlers;
}

function validated<C extends RequestChannel>(channel: C, impl: RequestHandlers) {
  const schema = requests[channel].input;
  // TypeScript does not follow a generic channel from its schema to its handler's argument: what
  // `schema` accepts is RequestArgs<C> by definition of both.
  const run = impl[channel] as (input: unknown) => Promise<RequestResults[C]>;
  return async (input: unknown): Promise<RequestResults[C]> => {
    const parsed = schema.safeParse(input ?? undefined);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      throw new CoreError(
        'INVALID_INPUT',
        `Invalid input for ${channel}: ${where}${issue?.message}. Correct it and try again.`,
      );
    }
    try {
      return await run(parsed.data);
    } catch (error) {
      if (error instanceof LocalApiError) {
        const code = error.kind === 'not-running' ? 'ROAM_NOT_RUNNING' : 'UNAVAILABLE';
        throw new CoreError(code, error.message);
      }
      throw error;
    }
  };
}
