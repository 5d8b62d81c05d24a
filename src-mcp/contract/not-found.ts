/**
 * One answer for "that page, block or uid does not exist", whichever tool met it: code NOT_FOUND,
 * a message naming the graph and the next step, and the closest titles when we know them.
 */
import { LocalApiError } from '../../src-shared/local-api/index.ts';
import type { ToolContext } from './tool-definition.ts';
import { ToolError } from './tool-errors.ts';

export interface Suggestion {
  title: string;
  uid: string;
  score: number;
}

/** `what` reads like "Page 'Foo'" or "Block uid 'abc123xyz'". */
export function notFoundError(what: string, graph: string, suggestions?: Suggestion[]): ToolError {
  const closest = suggestions?.length
    ? `Closest titles: ${suggestions.map((s) => JSON.stringify(s.title)).join(', ')}. Retry with one of them, or use`
    : 'Use';
  return new ToolError(
    'NOT_FOUND',
    `${what} does not exist in graph "${graph}". ${closest} search (or resolve_pages for titles) to find the right title or uid.`,
    { suggested_next_tool: 'search', ...(suggestions ? { suggestions } : {}) },
  );
}

/** Whether an entity with this uid, or a page with this title, exists (one round trip). */
export async function exists(ctx: ToolContext, ref: { uid: string } | { title: string }): Promise<boolean> {
  const [attribute, value] = 'uid' in ref ? [':block/uid', ref.uid] : [':node/title', ref.title];
  const found = await ctx.call('data.q', [`[:find ?e . :in $ ?v :where [?e ${attribute} ?v]]`, value]);
  return typeof found === 'number';
}

/**
 * Runs a Local API call about `refs`; when Roam fails (or, for a read, answers nothing), checks
 * whether one of them is missing and answers NOT_FOUND for it instead of a generic "Roam failed".
 * Writes answer null on success, so only reads pass `read`.
 */
export async function withMissingCheck<T>(
  ctx: ToolContext,
  refs: Array<{ what: string; ref: { uid: string } | { title: string } }>,
  run: () => Promise<T>,
  read = false,
): Promise<T> {
  const missing = async (): Promise<ToolError | undefined> => {
    for (const { what, ref } of refs)
      if (!(await exists(ctx, ref))) return notFoundError(what, ctx.graph.nickname);
    return undefined;
  };
  let result: T;
  try {
    result = await run();
  } catch (error) {
    const rejected = error instanceof LocalApiError && ['internal', 'validation'].includes(error.kind);
    throw (rejected && (await missing())) || error;
  }
  if (read && (result === null || result === undefined)) {
    const error = await missing();
    if (error) throw error;
  }
  return result;
}
