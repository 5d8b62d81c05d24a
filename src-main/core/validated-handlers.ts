import { requestSchemas, type RequestChannel, type RequestResults } from '../../src-shared/ipc-contract.ts';
import { LocalApiError } from '../../src-shared/local-api/index.ts';
import { CoreError } from './core-error.ts';

export type CoreHandlers = {
  [C in RequestChannel]: (input: unknown) => Promise<RequestResults[C]>;
};

type Handler = (input: unknown) => Promise<unknown>;

/**
 * Wraps each channel's implementation: the input is validated with the contract's zod schema first,
 * and a Local API failure becomes a CoreError the renderer can explain.
 */
export function validatedHandlers(impl: Record<RequestChannel, unknown>): CoreHandlers {
  const handlers = {} as Record<RequestChannel, Handler>;
  for (const channel of Object.keys(requestSchemas) as RequestChannel[]) {
    const run = impl[channel] as Handler;
    handlers[channel] = async (input) => {
      const parsed = requestSchemas[channel].safeParse(input ?? undefined);
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
  return handlers as CoreHandlers;
}
