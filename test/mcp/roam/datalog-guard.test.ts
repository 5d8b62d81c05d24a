/**
 * datalog_query's guard against its definition: a guarded query on the graph answers what the
 * agent's query answers on the same graph with the hidden blocks (and every datom naming them)
 * removed — whatever it computes. DataScript over both databases is the oracle; the queries come
 * from a grammar of clauses and functions, the graphs have random hidden subtrees. Seeded and
 * replayable (fast-check prints the seed); ROAM_LONG_TESTS=1 runs many more.
 */
import datascript from 'datascript';
import type { DB } from 'datascript';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DatalogRefusal, guardQuery } from '../../../src-mcp/roam/datalog-guard.ts';
import { translateEdn } from '../../emulator/edn-query.ts';
import { fastInitDb } from '../../emulator/fast-init-db.ts';
import { graphDatoms, type Datom } from '../../emulator/graph-loader.ts';
import { ROAM_SCHEMA } from '../../emulator/roam-graph.ts';
import type { BlockSpec, PageSpec } from '../../emulator/types.ts';
import { HIDDEN_GRAPH } from '../navigation/hidden-graph.ts';

const LONG = process.env.ROAM_LONG_TESTS === '1';
const TAGS = new Set(['.rm-hide', '.rm-private']);
const REFS = new Set(
  Object.keys(ROAM_SCHEMA).filter((a) => ROAM_SCHEMA[a]![':db/valueType'] === ':db.type/ref'),
);

/** The graph as the agent may see it: hidden entities and every datom naming one removed. */
function withoutHidden(datoms: readonly Datom[]): Datom[] {
  const tags = new Set(
    datoms.filter(([, a, v]) => a === ':node/title' && TAGS.has(v as string)).map(([e]) => e),
  );
  const anchors = new Set(
    datoms.filter(([, a, v]) => a === ':block/refs' && tags.has(v as number)).map(([e]) => e),
  );
  const hidden = new Set(anchors);
  for (const [e, a, v] of datoms) if (a === ':block/parents' && anchors.has(v as number)) hidden.add(e);
  return datoms.filter(([e, a, v]) => !hidden.has(e) && !(REFS.has(a) && hidden.has(v as number)));
}

interface Worlds {
  full: DB;
  visible: DB;
}

function worlds(pages: readonly PageSpec[]): Worlds {
  const datoms = graphDatoms('guard', pages);
  return { full: fastInitDb(datoms, ROAM_SCHEMA), visible: fastInitDb(withoutHidden(datoms), ROAM_SCHEMA) };
}

/** Answers compared as sets of rows: DataScript's order is its own. */
function normal(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((row) => JSON.stringify(row)).sort();
}

type Outcome = { refused: string } | { failed: string } | { answer: unknown };

function run(db: DB, query: string, inputs: unknown[]): Outcome {
  try {
    return { answer: normal(datascript.q(translateEdn(query), db, ...inputs)) };
  } catch (error) {
    return { failed: (error as Error).message };
  }
}

/** The guarded query on the full graph, beside the agent's own on the visible one. */
function compare(w: Worlds, query: string, inputs: unknown[] = []): { guarded: Outcome; oracle: Outcome } {
  const oracle = run(w.visible, query, inputs);
  try {
    return { guarded: run(w.full, guardQuery(query, inputs.length), inputs), oracle };
  } catch (error) {
    if (error instanceof DatalogRefusal) return { guarded: { refused: error.message }, oracle };
    throw error;
  }
}

/** Where the agent's query fails (a lookup ref to nothing, say), the guarded one fails or finds nothing. */
function expectFailedOrEmpty(guarded: Outcome, query: string): void {
  if ('failed' in guarded) return;
  expect(guarded, query).toSatisfy(
    (o: Outcome) =>
      'answer' in o &&
      (o.answer === null || o.answer === 0 || (Array.isArray(o.answer) && o.answer.length === 0)),
  );
}

function expectSameAsOracle(w: Worlds, query: string, inputs: unknown[] = []): void {
  const { guarded, oracle } = compare(w, query, inputs);
  expect('refused' in guarded, `${query} was refused: ${JSON.stringify(guarded)}`).toBe(false);
  if ('failed' in oracle) expectFailedOrEmpty(guarded, query);
  else expect(guarded, query).toEqual(oracle);
}

const hiddenWorld = worlds(HIDDEN_GRAPH);

describe('guarded Datalog answers as the graph without its hidden blocks', () => {
  const answered: Array<[string, unknown[]?]> = [
    ['[:find ?x :where [?b :block/string ?s] [(str ?s "|") ?x]]'],
    ['[:find ?x :where [?b :block/string ?s] [(subs ?s 1) ?x]]'],
    ['[:find ?x :where [?b :block/uid ?u] [(str ?u "/") ?x]]'],
    ['[:find ?x :where [?b :block/string ?s] [(re-pattern "SEC.*") ?re] [(re-find ?re ?s) ?x]]'],
    ['[:find ?s :where [_ :block/string ?s]]'],
    ['[:find ?u :where [?b :block/uid ?u] [?b :block/refs ?t] [?t :node/title ".rm-hide"]]'],
    ['[:find ?u :where [?b :block/uid ?u] [?b :block/refs _]]'],
    ['[:find (count ?b) . :where [?b :block/string _]]'],
    ['[:find (count-distinct ?s) . :where [?b :block/string ?s]]'],
    ['[:find (max ?s) . :where [?b :block/string ?s]]'],
    ['[:find ?s . :in $ ?u :where [?b :block/uid ?u] [?b :block/string ?s]]', ['hid-root3']],
    ['[:find ?s :in $ [?u ...] :where [?b :block/uid ?u] [?b :block/string ?s]]', [['hid-child1', 'public']]],
    [
      '[:find ?t :where [?p :node/title ?t] (not-join [?p] [?c :block/page ?p] [?c :block/string ?s] [(clojure.string/includes? ?s "SECRET")])]',
    ],
    [
      '[:find ?t :where [?p :node/title ?t] (not [?c :block/page ?p] [?c :block/string "SECRET diary [[.rm-private]]"])]',
    ],
    ['[:find ?t :where [?p :node/title ?t] [(missing? $ ?p :block/children)]]'],
    ['[:find ?u :where [?b :block/uid ?u] [(missing? $ ?b :block/refs)] [?b :block/page _]]'],
    [
      '[:find ?s :where (or [?b :block/string ?s] [?b :node/title ?s]) [(clojure.string/includes? ?s "SECRET")]]',
    ],
    ['[:find ?s :where (or-join [?s] (and [?b :block/refs ?t] [?b :block/string ?s]) [?p :node/title ?s])]'],
    ['[:find ?t :where [?b :block/refs ?r] [?r :node/title ?t]]'],
    ['[:find ?t :where [?r :node/title ?t] [?b :block/refs ?r] [?b :block/page ?p]]'],
    ['[:find ?cs :where [?p :block/uid "journal"] [?p :block/children ?c] [?c :block/string ?cs]]'],
    ['[:find ?s :where [?b :block/parents ?a] [?a :block/uid "hid-root1"] [?b :block/string ?s]]'],
    [
      '[:find (pull ?b [:block/string :block/uid {:block/page [:node/title]}]) :where [?b :block/uid "hid-grand1"]]',
    ],
    ['[:find (pull ?b [:block/string]) . :in $ ?b]', [1]],
    ['[:find ?s :where [(ground 5) ?e] [(get-else $ ?e :block/string "none") ?s]]'],
    ['[:find ?s :where [?b :block/uid ?u] [(get-else $ ?b :block/string "") ?s]]'],
    ['[:find ?s :where [[:block/uid "hid-root1"] :block/string ?s]]'],
    ['[:find ?c :where [?b :block/uid "hid-root1"] [?b :block/children ?c]]'],
    ['[:find ?b :where [?b :block/refs [:node/title ".rm-private"]]]'],
    ['[:find ?u :where [?b :block/uid ?u] [?b :block/string ?s] [(count ?s) ?n] [(> ?n 20)]]'],
    [
      '[:find ?x :where [?b :block/string ?s] [(clojure.string/starts-with? ?s "SECRET")] [(ground true) ?x]]',
    ],
    ['{:find [?s] :where [[?b :block/string ?s] [(clojure.string/includes? ?s "SECRET")]]}'],
  ];

  it.each(answered)('%s', (query, inputs) => {
    expectSameAsOracle(hiddenWorld, query, inputs ?? []);
    const guarded = run(hiddenWorld.full, guardQuery(query, (inputs ?? []).length), inputs ?? []);
    expect(JSON.stringify(guarded)).not.toContain('SECRET');
    expect(JSON.stringify(guarded)).not.toMatch(/hid-(root|child|grand)/);
  });

  it('matches the unguarded query on a graph with nothing hidden', () => {
    const open = worlds([
      { title: 'Open', children: ['one [[Two]]', { string: 'three', children: ['four'] }] },
    ]);
    const query = '[:find ?s ?t :where [?b :block/string ?s] [?b :block/page ?p] [?p :node/title ?t]]';
    expect(run(open.full, guardQuery(query, 0), [])).toEqual(run(open.full, query, []));
  });

  it('shows a visible text that cites a hidden block as written, and the citation leads nowhere', () => {
    const w = worlds([{ title: 'Refs', children: ['See ((hid-root1)) later'] }, ...HIDDEN_GRAPH]);
    const cite = '[:find ?s :where [?b :block/string ?s] [(clojure.string/includes? ?s "((")]]';
    expect(run(w.full, guardQuery(cite, 0), [])).toEqual({
      answer: [JSON.stringify(['See ((hid-root1)) later'])],
    });
    const follow =
      '[:find ?t :where [?b :block/string ?s] [(re-pattern "\\\\(\\\\(([^)]+)\\\\)\\\\)") ?re] [(re-find ?re ?s) [_ ?u]] [?h :block/uid ?u] [?h :block/string ?t]]';
    expectSameAsOracle(w, follow);
    expect(run(w.full, guardQuery(follow, 0), [])).toEqual({ answer: [] });
  });

  it('leaves a page whose title carries a hiding tag as Roam does: its title and untagged blocks are visible', () => {
    const w = worlds([{ title: 'Plans #.rm-private', children: ['open plan', 'closed plan #.rm-hide'] }]);
    const query = '[:find ?t ?s :where [?p :node/title ?t] [?b :block/page ?p] [?b :block/string ?s]]';
    expectSameAsOracle(w, query);
    expect(run(w.full, guardQuery(query, 0), [])).toEqual({
      answer: [JSON.stringify(['Plans #.rm-private', 'open plan'])],
    });
  });
});

describe('what cannot be guarded is refused, saying what to write instead', () => {
  const refused: Array<[string, RegExp]> = [
    ['[:find (pull ?b [*]) :where [?b :block/uid "x"]]', /Name each attribute/],
    [
      '[:find (pull ?b [:block/string {:block/children ...}]) :where [?b :block/uid "x"]]',
      /cannot follow :block\/children/,
    ],
    ['[:find (pull ?b [:block/children]) :where [?b :block/uid "x"]]', /Join the children instead/],
    [
      '[:find (pull ?b [:block/string {:block/_refs [:block/string]}]) :where [?b :block/uid "x"]]',
      /reverse attribute/,
    ],
    ['[:find ?v :where [?b ?a ?v]]', /Name the attribute/],
    ['[:find ?v :where [?b :block/strings ?v]]', /not an attribute datalog_query can check/],
    [
      '[:find ?x :where [?b :block/string ?s] [(str $) ?x]]',
      /Only get-else, get-some and missing\? take the database/,
    ],
    ['[:find ?x :in $ % :where (ancestor ?a ?x)]', /Rules cannot be passed/],
    ['[:find ?x :where (ancestor ?a ?x)]', /rules and ancestor are not supported/],
    ['[:find ?x :in $ $2 :where [$2 ?x :block/string _]]', /the one graph/],
    ['[:find ?p :where [?b :block/uid "x"] [(get-else $ ?b :block/page 0) ?p]]', /holds entities/],
    ['[:find ?x :where [?b :block/string ?s] [(js/eval ?s) ?x]]', /not one datalog_query runs/],
    ['[:find ?x :where [?b :block/string ?s] [(?f ?s) ?x]]', /must be named/],
    ['[:find ?x :where [?b :block/string ?s ?tx]]', /transactions are not queried/],
    ['[:find ?s :where [?__e1 :block/string ?s]]', /reserved/],
    ['[:find ?s :where (or [?b :block/string ?s] [?b :node/title ?t])]', /same variables/],
    ['[:find (aggregate ?f ?s) :where [?b :block/string ?s]]', /cannot check/],
    ['[:find ?x :where [?b :block/string ?s] [(str (subs ?s 1)) ?x]]', /not a plain constant/],
  ];

  it.each(refused)('%s', (query, message) => {
    expect(() => guardQuery(query, query.includes(':in $ %') ? 1 : 0)).toThrow(message);
  });

  it('says when the query is not EDN or has no :find', () => {
    expect(() => guardQuery('[:find ?x :where [?x', 0)).toThrow(/one EDN vector|not valid EDN/);
    expect(() => guardQuery('[:where [?b :block/string ?s]]', 0)).toThrow(/no :find/);
    expect(() => guardQuery('[:find ?s :in $ ?u :where [?b :block/uid ?u]]', 0)).toThrow(/takes 1 value/);
  });
});

// ---- The property: queries from a grammar over graphs with random hidden subtrees ----

const TAG_FORMS = ['#.rm-hide', '[[.rm-private]]', '#[[.rm-hide]]', '[[.rm-hide]]', '#.rm-private'];

/** A random outline; every hidden block's text carries SECRET, every uid under a hidden block starts hid-. */
const graphArb = fc
  .array(
    fc.record({
      page: fc.integer({ min: 0, max: 3 }),
      depth: fc.integer({ min: 0, max: 3 }),
      tag: fc.option(fc.constantFrom(...TAG_FORMS), { freq: 3 }),
      link: fc.option(fc.integer({ min: 0, max: 4 }), { freq: 2 }),
    }),
    { minLength: 1, maxLength: 24 },
  )
  .map((blocks) => {
    const pages: PageSpec[] = [0, 1, 2, 3].map((i) => ({
      title: `Page ${i}`,
      uid: `page${i}`,
      children: [],
    }));
    const stacks = pages.map(
      () => [] as Array<{ spec: { string: string; uid: string; children: BlockSpec[] }; hidden: boolean }>,
    );
    blocks.forEach((b, n) => {
      const stack = stacks[b.page]!;
      stack.length = Math.min(stack.length, b.depth);
      const parent = stack.at(-1);
      const hidden = (parent?.hidden ?? false) || b.tag !== null;
      const link = b.link === null ? '' : ` [[Topic ${b.link}]]`;
      const spec = {
        string: `${hidden ? 'SECRET ' : ''}block ${n}${link}${b.tag ? ` ${b.tag}` : ''}`,
        uid: `${hidden ? 'hid' : 'vis'}-${n}`,
        children: [] as BlockSpec[],
      };
      (parent ? parent.spec.children : pages[b.page]!.children!).push(spec);
      stack.push({ spec, hidden });
    });
    return pages;
  });

interface Group {
  needs: string[];
  binds: string[];
  text: string;
}

/** Clause groups: each binds some variables from others; a query strings several together. */
const GROUPS: Group[] = [
  { needs: [], binds: ['?b', '?s'], text: '[?b :block/string ?s]' },
  { needs: [], binds: ['?b', '?u'], text: '[?b :block/uid ?u]' },
  { needs: [], binds: ['?p', '?t'], text: '[?p :node/title ?t]' },
  { needs: [], binds: ['?s'], text: '[_ :block/string ?s]' },
  { needs: ['?b'], binds: ['?p'], text: '[?b :block/page ?p]' },
  { needs: ['?b'], binds: ['?r'], text: '[?b :block/refs ?r]' },
  { needs: ['?b'], binds: ['?c'], text: '[?b :block/children ?c]' },
  { needs: ['?b'], binds: ['?a'], text: '[?b :block/parents ?a]' },
  { needs: ['?c'], binds: ['?cs'], text: '[?c :block/string ?cs]' },
  { needs: ['?a'], binds: ['?as'], text: '[(get-else $ ?a :block/string "page") ?as]' },
  { needs: ['?r'], binds: ['?rt'], text: '[?r :node/title ?rt]' },
  { needs: ['?s'], binds: ['?x'], text: '[(str ?s "|") ?x]' },
  { needs: ['?s'], binds: ['?x'], text: '[(subs ?s 1) ?x]' },
  { needs: ['?u'], binds: ['?x'], text: '[(str ?u "/") ?x]' },
  { needs: ['?s'], binds: [], text: '[(clojure.string/includes? ?s "SECRET")]' },
  { needs: ['?s'], binds: [], text: '[(clojure.string/includes? ?s "block 1")]' },
  { needs: ['?b'], binds: [], text: '(not [?b :block/refs _])' },
  { needs: ['?b'], binds: [], text: '[(missing? $ ?b :block/children)]' },
  {
    needs: ['?p'],
    binds: [],
    text: '(not-join [?p] [?k :block/page ?p] [?k :block/string ?ks] [(clojure.string/includes? ?ks "SECRET")])',
  },
  {
    needs: ['?b'],
    binds: [],
    text: '(not-join [?b] [?k :block/parents ?b] [?k :block/string ?ks] [(clojure.string/starts-with? ?ks "SECRET")])',
  },
  { needs: [], binds: ['?b', '?s'], text: '(or [?b :block/string ?s] [?b :node/title ?s])' },
  { needs: [], binds: ['?b'], text: '[?b :block/refs [:node/title ".rm-hide"]]' },
];

const FINDS = (bound: string[]): string[] => [
  ...bound,
  ...bound.map((v) => `(count ${v})`),
  ...(bound.includes('?b') ? ['(pull ?b [:block/string :block/uid {:block/page [:node/title]}])'] : []),
];

const queryArb = fc.array(fc.nat(GROUPS.length - 1), { minLength: 1, maxLength: 5 }).chain((picks) => {
  const bound = new Set<string>();
  const texts: string[] = [];
  for (const pick of picks) {
    const group = GROUPS[pick]!;
    if (!group.needs.every((v) => bound.has(v))) continue;
    texts.push(group.text);
    for (const v of group.binds) bound.add(v);
  }
  if (texts.length === 0) {
    texts.push(GROUPS[0]!.text);
    for (const v of GROUPS[0]!.binds) bound.add(v);
  }
  const finds = FINDS([...bound]);
  return fc
    .subarray(finds, { minLength: 1, maxLength: Math.min(3, finds.length) })
    .map((find) => `[:find ${find.join(' ')} :where ${texts.join(' ')}]`);
});

describe('the property', () => {
  it('any grammar query on any graph answers as the visible graph does, and shows nothing hidden', () => {
    fc.assert(
      fc.property(graphArb, queryArb, (pages, query) => {
        const w = worlds(pages);
        const { guarded, oracle } = compare(w, query);
        if ('failed' in oracle) return expectFailedOrEmpty(guarded, query);
        expect(guarded, query).toEqual(oracle);
        const text = JSON.stringify(guarded);
        expect(text).not.toContain('SECRET');
        expect(text).not.toMatch(/hid-\d/);
      }),
      { numRuns: LONG ? 3000 : 150 },
    );
  });
});
