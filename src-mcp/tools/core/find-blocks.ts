/**
 * find_blocks (docs/mcp.md, "Finding blocks"): blocks by text, TODO/DONE status, page, tag and
 * creation or edit time, in one Datalog round trip that also leaves out hidden blocks and
 * everything under them (Roam's hiding rule, src-mcp/roam/hidden-blocks.ts); one more pulls the
 * breadcrumbs of the page of hits shown. Paged like every list.
 */
import * as z from 'zod';
import { HIDING_TAGS } from '../../roam/hidden-blocks.ts';
import { LIMITS, paginate, truncate } from '../../server/limits.ts';
import { defineTool, type ToolContext } from '../../server/tool-definition.ts';
import { timeBound } from './time-bound.ts';

type Row = [uid: string, text: string, created: number, edited: number, page: string];

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

/** The query and its inputs: every filter a clause, values passed as inputs (never spliced in). */
export function findQuery(filters: Filters, now: Date = new Date()): { query: string; inputs: unknown[] } {
  const inputs: string[] = [];
  const values: unknown[] = [];
  const where = [
    '[?b :block/string ?s] [?b :block/uid ?uid] [?b :block/page ?p] [?p :node/title ?title]',
    '[(get-else $ ?b :create/time 0) ?ct] [(get-else $ ?b :edit/time 0) ?et]',
  ];
  const input = (name: string, value: unknown) => {
    inputs.push(name);
    values.push(value);
  };
  if (filters.page !== undefined) {
    input('?page', filters.page);
    where.push('[?p :node/title ?page]');
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
    where.push('[(re-pattern ?re) ?rx] [(re-find ?rx ?s)]');
  }
  const bounds: Array<[keyof Filters, string, string]> = [
    ['createdAfter', '?ct', '>='],
    ['createdBefore', '?ct', '<'],
    ['editedAfter', '?et', '>='],
    ['editedBefore', '?et', '<'],
  ];
  for (const [field, variable, op] of bounds) {
    const value = filters[field];
    if (value === undefined) continue;
    const name = `?${field}`;
    input(name, timeBound(field, value, now));
    where.push(`[(${op} ${variable} ${name})]`);
  }
  where.push(NOT_HIDDEN);
  const query = `[:find ?uid ?s ?ct ?et ?title :in $ ${inputs.join(' ')} :where ${where.join(' ')}]`;
  return { query, inputs: values };
}

function sortRows(rows: Row[], sort: (typeof SORTS)[number]): Row[] {
  const [key, direction] = sort.split('-') as ['edited' | 'created', 'asc' | 'desc'];
  const at = key === 'created' ? 2 : 3;
  const sign = direction === 'asc' ? 1 : -1;
  return rows.sort((a, b) => sign * ((a[at] as number) - (b[at] as number)) || (a[0] < b[0] ? -1 : 1));
}

type Raw = Record<string, unknown>;

/** Each hit's parents' texts, outermost first (the page not included: it is `page`). */
async function breadcrumbs(ctx: ToolContext, uids: string[]): Promise<Map<string, string[]>> {
  if (!uids.length) return new Map();
  const rows =
    (await ctx.call<Array<[string, Raw]> | null>('data.q', [
      '[:find ?u (pull ?b [:block/string {:block/_children ...}]) :in $ [?u ...] :where [?b :block/uid ?u]]',
      uids,
    ])) ?? [];
  const crumbs = new Map<string, string[]>();
  for (const [uid, raw] of rows) {
    const path: string[] = [];
    let parent = (raw?.[':block/_children'] as Raw[] | undefined)?.[0];
    while (parent && typeof parent[':block/string'] === 'string') {
      path.unshift(truncate(parent[':block/string'], LIMITS.context));
      parent = (parent[':block/_children'] as Raw[] | undefined)?.[0];
    }
    crumbs.set(uid, path);
  }
  return crumbs;
}

const iso = (ms: number) => (ms > 0 ? new Date(ms).toISOString() : null);
const time = z.string();

export const findBlocksTools = [
  defineTool({
    name: 'find_blocks',
    title: 'Find blocks',
    description:
      'Blocks matching all filters given: text (any case), status, page, tag (a page it refers to), created/edited After/Before (ISO, today, yesterday, 7d); with page, breadcrumb, times. Paginated.',
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
      const crumbs = await breadcrumbs(
        ctx,
        page.items.map((row) => row[0]),
      );
      return {
        ...page,
        items: page.items.map(([uid, text, created, edited, title]) => ({
          uid,
          page: title,
          breadcrumb: crumbs.get(uid) ?? [],
          text: truncate(text, LIMITS.listItem),
          created: iso(created),
          edited: iso(edited),
        })),
      };
    },
  }),
];
