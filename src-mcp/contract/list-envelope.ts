/**
 * The one envelope every list tool answers with (docs/mcp.md, Lists): `items`, `total` (all
 * matches, not just this page), `offset`, `limit`, and `nextOffset` only when there is more.
 * A tool may add its own fields next to these (e.g. `page` for get_outlinks, `truncated` when the
 * page itself had to be cut to fit, `hiddenNote`). `paginate` (limits.ts) builds the envelope.
 */
import * as z from 'zod';

/** The output schema of a list of `item`, for a tool's `outputSchema`. */
export function listOutput<T extends z.ZodType>(item: T) {
  return {
    items: z.array(item),
    total: z.number().int().describe('All matches, not just this page.'),
    offset: z.number().int(),
    limit: z.number().int(),
    nextOffset: z.number().int().optional().describe('Offset of the next page; absent on the last page.'),
  };
}
