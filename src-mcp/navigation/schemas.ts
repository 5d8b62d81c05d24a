/** Zod pieces shared by the navigation tools: inputs with defaults and bounds, output shapes. */
import * as z from 'zod';

/** `{title}` or `{uid}` of a page; checked in the handler (a raw shape cannot say "one of"). */
export const pageRefShape = {
  title: z.string().min(1).optional(),
  uid: z.string().min(1).optional(),
};

export function limitField(defaultValue: number, max: number) {
  return z.number().int().min(1).max(max).default(defaultValue);
}

export const offsetField = z.number().int().min(0).default(0);

/** Hubs and paths leave out links made only of attributes (`role:: x` → role) unless asked. */
export const includeAttributesField = z
  .boolean()
  .default(false)
  .describe('Also count links made only by attributes (role:: x)');

export const pageOutput = z.object({ uid: z.string(), title: z.string() });

/** The list envelope every list tool shares (src-mcp/contract/list-envelope.ts). */
export { listOutput } from '../contract/list-envelope.ts';

/** Hints every navigation tool shares (readOnlyHint follows from declaring no `writes`). */
export const GRAPH_ANNOTATIONS = { openWorldHint: false } as const;
