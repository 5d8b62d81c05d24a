/**
 * Runs Datalog queries and pulls written the way a Roam user writes them
 * (`[:find ?t :where [?p :node/title ?t]]`) against a database whose attributes are strings:
 * namespaced keywords become string literals; `:db/*` keywords and `:find`/`:in`/`:where` stay.
 */
import datascript from 'datascript';
import type { Eid } from 'datascript';
import type { RoamGraph } from './roam-graph.ts';

const DELIMITERS = new Set([' ', '\t', '\n', '\r', ',', '[', ']', '(', ')', '{', '}', '"', ';']);

/** Rewrites Roam-style EDN so datascript's JS API resolves attributes stored as strings. */
export function translateEdn(edn: string): string {
  let out = '';
  let i = 0;
  while (i < edn.length) {
    const ch = edn[i] as string;
    if (ch === '"') {
      let j = i + 1;
      while (j < edn.length && edn[j] !== '"') j += edn[j] === '\\' ? 2 : 1;
      out += edn.slice(i, j + 1);
      i = j + 1;
    } else if (ch === ';') {
      const end = edn.indexOf('\n', i);
      i = end < 0 ? edn.length : end;
    } else if (ch === ':' && (i === 0 || DELIMITERS.has(edn[i - 1] as string))) {
      let j = i + 1;
      while (j < edn.length && !DELIMITERS.has(edn[j] as string)) j++;
      const keyword = edn.slice(i, j);
      out += keyword.includes('/') && !keyword.startsWith(':db/') ? `"${keyword}"` : keyword;
      i = j;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** datascript names `:db/id` "id" inside query pulls; Roam says ":db/id". */
function restoreDbId(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(restoreDbId);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key === 'id' ? ':db/id' : key, restoreDbId(inner)]),
    );
  }
  return value;
}

/**
 * Roam answers `:block/children` as an unordered set (callers sort by
 * `:block/order`). datascript lists them by entity id, which is usually creation order
 * and so often the display order: reversed here, a caller that forgets to sort finds out.
 */
function unorderChildren(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unorderChildren);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => {
        const shaped = unorderChildren(inner);
        return [key, key === ':block/children' && Array.isArray(shaped) ? shaped.reverse() : shaped];
      }),
    );
  }
  return value;
}

/** `data.q` / `q`: args are [queryString, ...inputs]; returns Roam-shaped results. */
export function runQuery(graph: RoamGraph, args: unknown[]): unknown {
  const [query, ...inputs] = args;
  if (typeof query !== 'string' || query.trim() === '') {
    throw new Error(
      'data.q: the first argument must be a Datalog query string, e.g. "[:find ?t :where [?p :node/title ?t]]".',
    );
  }
  try {
    const result = datascript.q(translateEdn(query), graph.db, ...inputs);
    // Only pulls produce maps; walking a 100k-tuple result for nothing costs real time.
    return query.includes('pull') ? unorderChildren(restoreDbId(result)) : result;
  } catch (error) {
    throw new Error(
      `data.q: the query could not be run: ${(error as Error).message}. Check its EDN syntax and variables.`,
      { cause: error },
    );
  }
}

/** Accepts 123, "[:block/uid \"abc\"]", [":block/uid", "abc"] or ["block/uid", "abc"]. */
export function parseEid(value: unknown, what: string): Eid {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string') {
    const attr = value[0].startsWith(':') ? value[0] : `:${value[0]}`;
    return [attr, value[1]];
  }
  if (typeof value === 'string') {
    const match = /^\s*\[\s*:?([\w.-]+\/[\w.-]+)\s+(?:"((?:[^"\\]|\\.)*)"|(-?\d+))\s*\]\s*$/.exec(value);
    if (match)
      return [`:${match[1]}`, match[2] !== undefined ? JSON.parse(`"${match[2]}"`) : Number(match[3])];
    if (/^\d+$/.test(value.trim())) return Number(value);
  }
  throw new Error(
    `${what}: cannot read the entity id ${JSON.stringify(value)}. Use a number, a lookup ref like "[:block/uid \\"abc\\"]" or [":block/uid", "abc"].`,
  );
}

function exists(graph: RoamGraph, eid: Eid): boolean {
  if (typeof eid === 'number')
    return graph.attrs(eid, ':block/uid').length > 0 || graph.attrs(eid, ':node/title').length > 0;
  const [attr, value] = eid;
  return [...datascript.datoms(graph.db, ':avet', attr, value)].length > 0;
}

function pattern(value: unknown, what: string): string {
  if (typeof value !== 'string') {
    throw new Error(
      `${what}: the pull pattern must be an EDN string, e.g. "[:block/string {:block/children [:block/uid]}]".`,
    );
  }
  return translateEdn(value);
}

/** `data.pull`: [pattern, eid] → the entity map with Roam keys, or null when it doesn't exist. */
export function runPull(graph: RoamGraph, args: unknown[]): unknown {
  const what = 'data.pull';
  const eid = parseEid(args[1], what);
  const edn = pattern(args[0], what);
  if (!exists(graph, eid)) return null;
  try {
    return unorderChildren(datascript.pull(graph.db, edn, eid));
  } catch (error) {
    throw new Error(`${what}: ${(error as Error).message}. Check the pull pattern.`, { cause: error });
  }
}

/** `data.pull_many`: [pattern, [eid...]] → one result (or null) per eid. */
export function runPullMany(graph: RoamGraph, args: unknown[]): unknown {
  const what = 'data.pull_many';
  if (!Array.isArray(args[1]))
    throw new Error(`${what}: the second argument must be an array of entity ids.`);
  const edn = pattern(args[0], what);
  return args[1].map((raw: unknown) => {
    const eid = parseEid(raw, what);
    return exists(graph, eid) ? unorderChildren(datascript.pull(graph.db, edn, eid)) : null;
  });
}
