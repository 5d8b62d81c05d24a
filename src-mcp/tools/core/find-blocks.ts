/**
 * find_blocks (docs/mcp.md, "Finding blocks"): blocks by text, TODO/DONE status, page, tag and
 * creation or edit time, in one Datalog round trip that also leaves out hidden blocks and
 * everything under them (Roam's hiding rule, src-mcp/roam/hidden-blocks.ts) and answers only
 * entity ids and times; one more pulls the uid, text, page and breadcrumb of the hits shown.
 * Paged like every list.
 */
import * as z from 'zod';
import { HIDING_TAGS } from '../../roam/hidden-blocks.ts';
import { LIMITS, paginate, truncate } from '../../contract/limits.ts';
import { defineTool, type ToolContext } from '../../contract/tool-definition.ts';
import { timeBound } from './time-bound.ts';

/** `[block eid, :create/time, :edit/time]` of a match. */
type Row = [eid: number, created: number, edited: number];

const SORTS = ['edited-desc', 'edited-asc', 'created-desc', 'created-asc'] as const;
const STATUS_PAGE = { todo: 'TODO', done: 'DONE' } as const;

const edn = (value: string) => JSON.stringify(value);
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Not hidden: no ancestor-or-self refers to a hiding tag. */
const NOT_HIDDEN =
  `(not-join [?b] [?h :node/title ?ht] [(contains? #{${HIDING_TAGS.map(edn).join(' ')}} ?ht)]` +
  ' [?r :block/refs ?h] (or-join [?b ?r] [(identity ?r) ?b] [?b :block/parents ?r]))';

interface Filters {
  text?: string;
  status?: 'todo' | 'done';
  page?: string;
  tag?: string;
  createdAfter?: string;
  createdBefore?: string;
  editedAfter?: string;
  editedBefore?: string;
}

/**
 * The match query and its inputs: every filter a clause, values passed as inputs (never spliced
 * in), the most selective clauses first (DataScript runs them in the order written), and plain
 * attribute clauses for the times (a `get-else` per block costs several times more).
 */
export function findQuery(filters: Filters, now: Date = new Date()): { query: string; inputs: unknown[] } {
  const names: string[] = [];
  const values: unknown[] = [];
  const where: string[] = [];
  const input = (name: string, value: unknown) => {
    names.push(name);
    values.push(value);
  };
  if (filters.page !== undefined) {
    input('?page', filters.page);
    where.push('[?p :node/title ?page] [?b :block/page ?p]');
  }
  if (filters.tag !== undefined) {
    input('?tag', filters.tag);
    where.push('[?tg :node/title ?tag] [?b :block/refs ?tg]');
  }
  if (filters.status !== undefined) {
    input('?status', STATUS_PAGE[filters.status]);
    where.push('[?st :node/title ?status] [?b :block/refs ?st]');
  }
  if (filters.text !== undefined) {
    input('?re', `(?i)${escapeRegex(filters.text)}`);
    where.unshift('[(re-pattern ?re) ?rx]');
    where.push('[?b :block/string ?s] [(re-find ?rx ?s)]');
  }
  const bounds: Array<[keyof Filters, string, string]> = [
    ['editedAfter', '?et', '>='],
    ['editedBefore', '?et', '<'],
    ['createdAfter', '?ct', '>='],
    ['createdBefore', '?ct', '<'],
  ];
  const timed = new Set<string>();
  for (const [field, variable, op] of bounds) {
    const value = filters[field];
    if (value === undefined) continue;
    input(`?${field}`, timeBound(field, value, now));
    if (!timed.has(variable))
      where.push(variable === '?et' ? '[?b :edit/time ?et]' : '[?b :create/time ?ct]');
    timed.add(variable);
    where.push(`[(${op} ${variable} ?${field})]`);
  }
  where.push('[?b :block/page]');
  if (!timed.has('?ct')) where.push('[?b :create/time ?ct]');
  if (!timed.has('?et')) where.push('[?b :edit/time ?et]');
  where.push(NOT_HIDDEN);
  const query = `[:find ?b ?ct ?et :in $ ${names.join(' ')} :where ${where.join(' ')}]`;
  return { query, inputs: values };
}

function sortRows(rows: Row[], sort: (typeof SORTS)[number]): Row[] {
  const [key, direction] = sort.split('-') as ['edited' | 'created', 'asc' | 'desc'];
  const at = key === 'created' ? 1 : 2;
  const sign = direction === 'asc' ? 1 : -1;
  return rows.sort((a, b) => sign * (a[at] - b[at]) || sign * (a[0] - b[0]));
}

type Raw = Record<string, unknown>;

const DETAILS =
  '[:find ?b (pull ?b [:block/uid :block/string {:block/page [:node/title]} {:block/_children ...}])' +
  ' :in $ [?b ...] :where [?b :block/uid]]';

interface Details {
  uid: string;
  text: string;
  page: string;
  /** The parents' texts, outermost first (the page is `page`). */
  breadcrumb: string[];
}

/** Uid, text, page and breadcrumb of the hits shown, in one pull. */
async function details(ctx: ToolContext, eids: number[]): Promise<Map<number, Details>> {
  if (!eids.length) return new Map();
  const rows = (await ctx.call<Array<[number, Raw]> | null>('data.q', [DETAILS, eids])) ?? [];
  const found = new Map<number, Details>();
  for (const [eid, raw] of rows) {
    const breadcrumb: string[] = [];
    let parent = (raw?.[':block/_children'] as Raw[] | undefined)?.[0];
    while (parent && typeof parent[':block/string'] === 'string') {
      breadcrumb.unshift(truncate(parent[':block/string'], LIMITS.context));
      parent = (parent[':block/_children'] as Raw[] | undefined)?.[0];
    }
    found.set(eid, {
      uid: String(raw?.[':block/uid'] ?? ''),
      text: truncate(String(raw?.[':block/string'] ?? ''), LIMITS.listItem),
      page: String((raw?.[':block/page'] as Raw | undefined)?.[':node/title'] ?? ''),
      breadcrumb,
    });
  }
  return found;
}

const iso = (ms: number) => (ms > 0 ? new Date(ms).toISOString() : null);
const time = z.string();

export const findBlocksTools = [
  defineTool({
    name: 'find_blocks',
    title: 'Find blocks',
    description:
      'Blocks matching every filter given (text: any case; tag: a page they refer to; After/Before: ISO, today, yesterday or 7d), with page, breadcrumb and times.',
    toolset: 'core',
    feature: 'block search',
    actions: ['data.q'],
    scope: 'graph',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: {
      text: z.string().optional(),
      status: z.enum(['todo', 'done']).optional(),
      page: z.string().optional(),
      tag: z.string().optional(),
      createdAfter: time.optional(),
      createdBefore: time.optional(),
      editedAfter: time.optional(),
      editedBefore: time.optional(),
      sort: z.enum(SORTS).default('edited-desc'),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(100).default(20),
    },
    async handler(args, ctx) {
      const { query, inputs } = findQuery(args);
      const rows = ((await ctx.call<Row[] | null>('data.q', [query, ...inputs])) ?? []).filter(Array.isArray);
      const page = paginate(sortRows(rows, args.sort), args.offset, args.limit);
      const shown = await details(
        ctx,
        page.items.map(([eid]) => eid),
      );
      return {
        ...page,
        items: page.items.flatMap(([eid, created, edited]) => {
          const hit = shown.get(eid);
          return hit ? [{ ...hit, created: iso(created), edited: iso(edited) }] : [];
        }),
      };
    },
  }),
];
