/**
 * Datalog answers as if the blocks hidden from AI were not in the graph (docs/mcp.md,
 * "datalog_query"). Roam's `q` applies no hiding rule, so the agent's query is parsed as EDN,
 * checked against what can be guarded, and rewritten: every entity it reaches gets a visibility
 * guard in the scope that binds it, right after the clause that binds it, so no function,
 * aggregate, pull or `not` ever sees a hidden block's values. What cannot be guarded is refused,
 * saying what to write instead. Hidden: a block (or page) that references `.rm-hide` or
 * `.rm-private`, and everything whose `:block/parents` include one.
 */
import { parseEDNString, toEDNString, type EDNVal } from 'edn-data';
import { ToolError } from '../contract/tool-errors.ts';
import { HIDDEN_CLAUSES, HIDING_TAGS } from './hidden-blocks.ts';

type Edn = EDNVal;
interface Sym {
  sym: string;
}
interface Kw {
  key: string;
}
interface List {
  list: Edn[];
}

const isSym = (v: unknown): v is Sym => typeof v === 'object' && v !== null && 'sym' in v;
const isKw = (v: unknown): v is Kw => typeof v === 'object' && v !== null && 'key' in v;
const isList = (v: unknown): v is List => typeof v === 'object' && v !== null && 'list' in v;
const isVar = (v: unknown): v is Sym => isSym(v) && v.sym.startsWith('?');
const isBlank = (v: unknown): boolean => isSym(v) && v.sym === '_';
const sym = (name: string): Sym => ({ sym: name });
const kw = (name: string): Kw => ({ key: name });
const list = (...items: Edn[]): List => ({ list: items });

/** Attributes whose values are plain data. */
const SCALAR_ATTRIBUTES = new Set([
  'block/string',
  'block/uid',
  'node/title',
  'block/order',
  'block/heading',
  'block/open',
  'block/text-align',
  'block/view-type',
  'block/props',
  'children/view-type',
  'create/time',
  'edit/time',
  'page/edit-time',
  'log/id',
  'page/sidebar',
  'user/uid',
  'user/display-name',
  'user/photo-url',
]);
/** Attributes whose values are entities: each one reached is guarded. */
const REF_ATTRIBUTES = new Set([
  'block/children',
  'block/refs',
  'block/page',
  'block/parents',
  'attrs/lookup',
  'create/user',
  'edit/user',
  'page/edit-user',
]);
/** Refs a pull may follow: from a visible block they only reach visible entities (its page, its ancestors, people). */
const PULL_FOLLOWS = new Set(['block/page', 'block/parents', 'create/user', 'edit/user', 'page/edit-user']);
const LOOKUP_ATTRIBUTES = new Set(['block/uid', 'node/title', 'user/uid']);

const AGGREGATES = new Set([
  'count',
  'count-distinct',
  'sum',
  'avg',
  'median',
  'variance',
  'stddev',
  'min',
  'max',
  'distinct',
  'rand',
  'sample',
]);
/** datascript's built-ins that read only the values they are given. */
const VALUE_FUNCTIONS = new Set([
  ...['=', '==', 'not=', '!=', '<', '>', '<=', '>=', '+', '-', '*', '/', 'quot', 'rem', 'mod', 'inc', 'dec'],
  ...['max', 'min', 'zero?', 'pos?', 'neg?', 'even?', 'odd?', 'compare', 'rand', 'rand-int'],
  ...['true?', 'false?', 'nil?', 'some?', 'not', 'and', 'or', 'identical?', 'identity', 'ground'],
  ...['keyword', 'name', 'namespace', 'type', 'vector', 'list', 'set', 'hash-map', 'array-map'],
  ...['count', 'range', 'not-empty', 'empty?', 'contains?', 'str', 'subs', 'get', 'pr-str', 'print-str'],
  ...['println-str', 'prn-str', 're-find', 're-matches', 're-seq', 're-pattern', '-differ?', 'tuple'],
  ...['untuple', 'clojure.string/blank?', 'clojure.string/includes?', 'clojure.string/starts-with?'],
  'clojure.string/ends-with?',
]);
/** The functions that read the database (`$`): their entity is guarded first, their attributes checked. */
const DATABASE_FUNCTIONS = new Set(['get-else', 'get-some', 'missing?']);

const SECTIONS = ['find', 'keys', 'strs', 'syms', 'with', 'in', 'where', 'timeout'] as const;
type Section = (typeof SECTIONS)[number];

/** Our own variables start so; the agent's may not. */
const OWN_PREFIX = '?__';

export class DatalogRefusal extends ToolError {
  constructor(what: string, instead: string) {
    super(
      'INVALID_PARAMS',
      `${what} ${instead} (Blocks hidden from AI must stay out of every answer, so datalog_query runs only what it can guard.)`,
      { field: 'query' },
    );
  }
}

const show = (value: Edn): string => {
  const text = toEDNString(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

function attributeOf(value: Edn, where: string): string {
  if (!isKw(value)) {
    throw new DatalogRefusal(
      `${where}: the attribute ${show(value)} is not a keyword.`,
      'Name the attribute, e.g. [?b :block/string ?s] (a variable or a string in its place cannot be checked).',
    );
  }
  const name = value.key;
  if (/\/_/.test(name)) {
    throw new DatalogRefusal(
      `${where}: the reverse attribute :${name} is not supported.`,
      `Turn the clause around: [?child :${name.replace('/_', '/')} ?parent].`,
    );
  }
  if (!SCALAR_ATTRIBUTES.has(name) && !REF_ATTRIBUTES.has(name)) {
    throw new DatalogRefusal(
      `${where}: :${name} is not an attribute datalog_query can check.`,
      `Use one of ${[...SCALAR_ATTRIBUTES, ...REF_ATTRIBUTES].map((a) => `:${a}`).join(', ')}.`,
    );
  }
  return name;
}

/** What the query's text holds, section by section (the vector form and the map form alike). */
function sectionsOf(query: string): Map<Section, Edn[]> {
  let parsed: unknown;
  try {
    parsed = parseEDNString(query);
  } catch (error) {
    throw new ToolError(
      'INVALID_PARAMS',
      `The query is not valid EDN: ${(error as Error).message}. Write it like [:find ?t :where [?p :node/title ?t]].`,
      { field: 'query' },
    );
  }
  const sections = new Map<Section, Edn[]>();
  const sectionName = (key: unknown): Section => {
    const name = isKw(key) ? key.key : undefined;
    if (!name || !(SECTIONS as readonly string[]).includes(name)) {
      throw new DatalogRefusal(
        `The query has ${key === undefined ? 'nothing' : show(key as Edn)} where a section (:find, :in, :where…) belongs.`,
        'Write it like [:find ?t :where [?p :node/title ?t]].',
      );
    }
    if (sections.has(name as Section)) {
      throw new DatalogRefusal(`The query has two :${name} sections.`, 'Merge them into one.');
    }
    return name as Section;
  };
  if (Array.isArray(parsed)) {
    let current: Edn[] | undefined;
    for (const item of parsed) {
      if (isKw(item) && (SECTIONS as readonly string[]).includes(item.key)) {
        current = [];
        sections.set(sectionName(item), current);
      } else if (current) current.push(item);
      else sectionName(item);
    }
  } else if (parsed && typeof parsed === 'object' && 'map' in parsed) {
    for (const [key, value] of (parsed as { map: [Edn, Edn][] }).map) {
      const name = sectionName(key);
      sections.set(name, name === 'timeout' ? [value] : Array.isArray(value) ? value : [value]);
    }
  } else {
    throw new ToolError(
      'INVALID_PARAMS',
      'The query must be one EDN vector (or map), e.g. [:find ?t :where [?p :node/title ?t]].',
      { field: 'query' },
    );
  }
  if (!sections.has('find')) {
    throw new DatalogRefusal(
      'The query has no :find.',
      'Start it with :find, e.g. [:find ?t :where [?p :node/title ?t]].',
    );
  }
  return sections;
}

/** Every variable (and `_`) a form names, our own excepted. */
function variablesIn(form: Edn, into = new Set<string>()): Set<string> {
  if (isVar(form)) into.add(form.sym);
  else if (Array.isArray(form)) for (const item of form) variablesIn(item, into);
  else if (isList(form)) for (const item of form.list) variablesIn(item, into);
  return into;
}

function checkConstant(value: Edn, where: string): void {
  if (isSym(value)) {
    throw new DatalogRefusal(
      `${where}: ${show(value)} cannot be an argument here.`,
      value.sym.startsWith('$')
        ? 'Only get-else, get-some and missing? take the database ($).'
        : 'Arguments are variables or constants.',
    );
  }
  if (isList(value) || (typeof value === 'object' && value !== null && ('tag' in value || 'map' in value))) {
    throw new DatalogRefusal(
      `${where}: ${show(value)} is not a plain constant.`,
      'Bind a computed value to a variable in a clause of its own, e.g. [(re-pattern "a.b") ?re] [(re-find ?re ?s)].',
    );
  }
  if (Array.isArray(value)) for (const item of value) checkConstant(item, where);
  if (typeof value === 'object' && value !== null && 'set' in value) {
    for (const item of (value as { set: Edn[] }).set) checkConstant(item, where);
  }
}

function checkBinding(binding: Edn, where: string): void {
  const ok = (b: Edn): boolean =>
    isVar(b) ||
    isBlank(b) ||
    (Array.isArray(b) &&
      b.length > 0 &&
      b.every((item, i) => ok(item) || (i === 1 && isSym(item) && item.sym === '...')));
  if (!ok(binding)) {
    throw new DatalogRefusal(
      `${where}: ${show(binding)} is not a binding.`,
      'Bind to ?x, [?x ...], [?a ?b] or [[?a ?b]].',
    );
  }
}

/** The query rewritten with its guards; each call has its own fresh variables. */
class Guarder {
  private fresh = 0;

  private freshVar(): Sym {
    return sym(`${OWN_PREFIX}e${++this.fresh}`);
  }

  /**
   * `entity` is neither tagged nor under a tagged block or page: two `not-join`s, each starting
   * from the tag pages (an index lookup), which DataScript runs about twice as fast as one with an
   * `or-join` of "is" and "is under" (bench/datalog-guard.ts).
   */
  private guard(entity: Sym): Edn[] {
    const title = sym(`${OWN_PREFIX}title`);
    const tag = sym(`${OWN_PREFIX}tag`);
    const anchor = sym(`${OWN_PREFIX}anchor`);
    const tags = (): Edn[] => [
      [list(sym('ground'), [...HIDING_TAGS]), [title, sym('...')]],
      [tag, kw('node/title'), title],
    ];
    return [
      list(sym('not-join'), [entity], ...tags(), [entity, kw('block/refs'), tag]),
      list(
        sym('not-join'),
        [entity],
        ...tags(),
        [anchor, kw('block/refs'), tag],
        [entity, kw('block/parents'), anchor],
      ),
    ];
  }

  private guardOnce(entity: Sym, guarded: Set<string>, out: Edn[]): void {
    if (guarded.has(entity.sym)) return;
    guarded.add(entity.sym);
    out.push(...this.guard(entity));
  }

  /** An entity slot: a variable stays; `_`, an entity id or a lookup ref becomes a fresh guarded variable. */
  private entitySlot(value: Edn, where: string, before: Edn[]): Sym {
    if (isVar(value)) return value;
    if (isBlank(value)) return this.freshVar();
    const slot = this.freshVar();
    if (typeof value === 'number') {
      before.push([list(sym('ground'), value), slot]);
      return slot;
    }
    if (Array.isArray(value) && value.length === 2 && isKw(value[0]) && LOOKUP_ATTRIBUTES.has(value[0].key)) {
      checkConstant(value[1]!, where);
      before.push([slot, value[0], value[1]!]);
      return slot;
    }
    throw new DatalogRefusal(
      `${where}: ${show(value)} cannot stand for an entity.`,
      'Use a variable, an entity id, or a lookup ref such as [:block/uid "abc123xyz"].',
    );
  }

  clauses(clauses: readonly Edn[], guarded: Set<string>): Edn[] {
    return clauses.flatMap((clause) => this.clause(clause, guarded));
  }

  private clause(clause: Edn, guarded: Set<string>): Edn[] {
    if (isList(clause)) return this.compound(clause, guarded);
    if (Array.isArray(clause) && isList(clause[0])) return this.call(clause, guarded);
    if (Array.isArray(clause)) return this.pattern(clause, guarded);
    throw new DatalogRefusal(
      `${show(clause)} is not a clause.`,
      'Clauses are patterns [?e :attr ?v], calls [(f ?x) ?y], or not/or forms.',
    );
  }

  private compound(clause: List, guarded: Set<string>): Edn[] {
    const [head, ...rest] = clause.list;
    const name = isSym(head) ? head.sym : '';
    if (name.startsWith('$')) {
      throw new DatalogRefusal(
        `${show(clause)} names a data source.`,
        'Query the one graph: leave the source out.',
      );
    }
    switch (name) {
      case 'not':
        return [list(sym('not'), ...this.clauses(rest, new Set(guarded)))];
      case 'not-join': {
        const [joins, ...body] = rest;
        if (!Array.isArray(joins) || !joins.every(isVar)) {
          throw new DatalogRefusal(
            `${show(clause)}: not-join needs a vector of variables first.`,
            'Write (not-join [?x] clauses…).',
          );
        }
        return [list(sym('not-join'), joins, ...this.clauses(body, new Set(guarded)))];
      }
      case 'and':
        return this.clauses(rest, guarded);
      case 'or':
      case 'or-join': {
        const joins = name === 'or-join' ? rest[0] : undefined;
        const branches = name === 'or-join' ? rest.slice(1) : rest;
        if (name === 'or-join' && !(Array.isArray(joins) && joins.length > 0)) {
          throw new DatalogRefusal(
            `${show(clause)}: or-join needs a vector of variables first.`,
            'Write (or-join [?x] branch…).',
          );
        }
        const bodies = branches.map((branch) =>
          isList(branch) && isSym(branch.list[0]) && branch.list[0].sym === 'and'
            ? branch.list.slice(1)
            : [branch],
        );
        if (bodies.length === 0)
          throw new DatalogRefusal(`${show(clause)} has no branches.`, 'Give it at least one.');
        let joinVars = joins as Edn;
        if (name === 'or') {
          // Our guards add variables to a branch: the join is named, as `or` would have joined.
          const names = bodies.map((body) => [...variablesIn(body)].sort().join(' '));
          if (names.some((n) => n !== names[0])) {
            throw new DatalogRefusal(
              `${show(clause)}: every branch of or must use the same variables.`,
              'Use (or-join [?x …] …) to name the ones that join.',
            );
          }
          joinVars = [...variablesIn(bodies[0]!)].map(sym);
        }
        return [
          list(
            sym('or-join'),
            joinVars,
            ...bodies.map((body) => list(sym('and'), ...this.clauses(body, new Set(guarded)))),
          ),
        ];
      }
      default:
        throw new DatalogRefusal(
          `${show(clause)}: rules and ${name || 'this form'} are not supported (Roam's q takes no rules from here).`,
          "Write the rule's clauses inline, with or-join where it has several bodies.",
        );
    }
  }

  private call(clause: Edn[], guarded: Set<string>): Edn[] {
    const [call, binding, ...extra] = clause as [List, Edn | undefined, ...Edn[]];
    const where = show(clause);
    if (extra.length > 0)
      throw new DatalogRefusal(`${where} has more than a call and a binding.`, 'Write [(f ?x) ?y].');
    const [fn, ...args] = call.list;
    if (!isSym(fn) || fn.sym.startsWith('?')) {
      throw new DatalogRefusal(
        `${where}: the function must be named.`,
        'Call a built-in such as str, subs or re-find.',
      );
    }
    if (binding !== undefined) checkBinding(binding, where);
    const out: Edn[] = [];
    if (DATABASE_FUNCTIONS.has(fn.sym)) {
      const [source, entity, ...attributes] = args;
      if (!isSym(source) || source.sym !== '$') {
        throw new DatalogRefusal(
          `${where}: ${fn.sym} reads the graph, so its first argument is $.`,
          `Write [(${fn.sym} $ ?e :block/string …)].`,
        );
      }
      if (!isVar(entity)) {
        throw new DatalogRefusal(
          `${where}: ${fn.sym} needs a variable for the entity.`,
          'Bind it in a pattern first, e.g. [?e :block/uid "abc"].',
        );
      }
      const named = fn.sym === 'get-else' ? attributes.slice(0, 1) : attributes;
      if (fn.sym === 'get-else') checkConstant(attributes[1] ?? null, where);
      const names = named.map((a) => attributeOf(a, where));
      this.guardOnce(entity, guarded, out);
      if (fn.sym === 'missing?' && names.length === 1 && REF_ATTRIBUTES.has(names[0]!)) {
        // Missing as the graph without its hidden blocks has it: no visible value.
        const value = this.freshVar();
        out.push(list(sym('not-join'), [entity], [entity, kw(names[0]!), value], ...this.guard(value)));
        return out;
      }
      if (names.some((n) => REF_ATTRIBUTES.has(n))) {
        throw new DatalogRefusal(
          `${where}: ${fn.sym} of an attribute that holds entities cannot be checked.`,
          'Join instead, e.g. [?e :block/page ?p], with (not …) for "missing".',
        );
      }
      out.push(clause);
      return out;
    }
    if (!VALUE_FUNCTIONS.has(fn.sym)) {
      throw new DatalogRefusal(
        `${where}: the function ${fn.sym} is not one datalog_query runs.`,
        "Use datascript's built-ins (str, subs, re-find, re-pattern, clojure.string/includes?, =, <, count…).",
      );
    }
    for (const arg of args) if (!isVar(arg)) checkConstant(arg, where);
    out.push(clause);
    return out;
  }

  private pattern(pattern: Edn[], guarded: Set<string>): Edn[] {
    const where = show(pattern);
    const parts = isSym(pattern[0]) && pattern[0].sym.startsWith('$') ? pattern.slice(1) : pattern;
    if (parts !== pattern && (pattern[0] as Sym).sym !== '$') {
      throw new DatalogRefusal(
        `${where} names another data source.`,
        'Query the one graph: leave the source out.',
      );
    }
    if (parts.length < 2 || parts.length > 3) {
      throw new DatalogRefusal(
        `${where} is not an [entity attribute value] pattern.`,
        'Write [?e :attr ?v] (transactions are not queried).',
      );
    }
    const attribute = attributeOf(parts[1]!, where);
    const before: Edn[] = [];
    const entity = this.entitySlot(parts[0]!, where, before);
    let value = parts[2];
    const entities = [entity];
    if (value !== undefined && REF_ATTRIBUTES.has(attribute)) {
      value = this.entitySlot(value, where, before);
      entities.push(value);
    } else if (value !== undefined && !isVar(value) && !isBlank(value)) checkConstant(value, where);
    const out: Edn[] = [...before, value === undefined ? [entity, parts[1]!] : [entity, parts[1]!, value]];
    for (const e of entities) this.guardOnce(e, guarded, out);
    return out;
  }

  /** Guards for pulled entities the clauses did not guard (an input's entity id, say). */
  pulls(find: readonly Edn[], guarded: Set<string>): Edn[] {
    const out: Edn[] = [];
    for (const element of find) {
      if (
        isList(element) &&
        isSym(element.list[0]) &&
        element.list[0].sym === 'pull' &&
        isVar(element.list[1])
      ) {
        this.guardOnce(element.list[1], guarded, out);
      }
    }
    return out;
  }
}

function checkPullPattern(pattern: Edn, where: string): void {
  if (!Array.isArray(pattern)) {
    throw new DatalogRefusal(
      `${where}: the pull pattern must be written in the query.`,
      'Write (pull ?e [:block/uid :block/string]).',
    );
  }
  for (const item of pattern) {
    if (isKw(item)) {
      if (item.key === 'db/id') continue;
      const name = attributeOf(item, where);
      if (REF_ATTRIBUTES.has(name) && !PULL_FOLLOWS.has(name)) {
        throw new DatalogRefusal(
          `${where}: a pull cannot follow :${name} (it can lead to blocks hidden from AI).`,
          name === 'block/children'
            ? 'Join the children instead: [?c :block/parents ?e] (every level) or [?e :block/children ?c], then pull ?c.'
            : `Join instead, e.g. [?e :${name} ?x], then pull ?x.`,
        );
      }
    } else if (item && typeof item === 'object' && 'map' in item) {
      for (const [key, inner] of (item as { map: [Edn, Edn][] }).map) {
        const name = attributeOf(key, where);
        if (!PULL_FOLLOWS.has(name)) {
          throw new DatalogRefusal(
            `${where}: a pull cannot follow :${name} (it can lead to blocks hidden from AI).`,
            `Join instead, e.g. [?e :${name} ?x], then pull ?x.`,
          );
        }
        if (!Array.isArray(inner)) {
          throw new DatalogRefusal(
            `${where}: recursive pulls are not supported.`,
            'Name the attributes of each level in a vector.',
          );
        }
        checkPullPattern(inner, where);
      }
    } else {
      throw new DatalogRefusal(
        `${where}: ${show(item)} is not supported in a pull.`,
        'Name each attribute, e.g. (pull ?e [:block/uid :block/string {:block/page [:node/title]}]) — not * or options.',
      );
    }
  }
}

function checkFind(find: readonly Edn[]): void {
  for (const [i, element] of find.entries()) {
    if (isVar(element)) continue;
    if (isSym(element) && element.sym === '.' && i === 1 && find.length === 2) continue;
    if (Array.isArray(element) && find.length === 1) {
      checkFind(element.filter((item) => !(isSym(item) && item.sym === '...')));
      continue;
    }
    if (isList(element) && isSym(element.list[0])) {
      const [head, ...args] = element.list as [Sym, ...Edn[]];
      const where = show(element);
      if (head.sym === 'pull') {
        if (!isVar(args[0]) || args.length !== 2) {
          throw new DatalogRefusal(
            `${where}: pull takes a variable and a pattern.`,
            'Write (pull ?e [:block/string]).',
          );
        }
        checkPullPattern(args[1]!, where);
        continue;
      }
      if (
        AGGREGATES.has(head.sym) &&
        args.length > 0 &&
        isVar(args.at(-1)) &&
        args.slice(0, -1).every((a) => typeof a === 'number')
      ) {
        continue;
      }
    }
    throw new DatalogRefusal(
      `:find has ${show(element)}, which datalog_query cannot check.`,
      'Find variables, aggregates such as (count ?b), or (pull ?e [:block/string]).',
    );
  }
}

function checkInputs(inputs: readonly Edn[] | undefined, given: number): void {
  const bindings = inputs ?? [];
  for (const [i, binding] of bindings.entries()) {
    if (isSym(binding) && binding.sym === '$' && i === 0) continue;
    if (isSym(binding) && (binding.sym.startsWith('$') || binding.sym === '%')) {
      throw new DatalogRefusal(
        `:in names ${binding.sym}.`,
        binding.sym === '%'
          ? 'Rules cannot be passed: write their clauses inline.'
          : 'Query the one graph ($) only.',
      );
    }
    checkBinding(binding, ':in');
  }
  const values = bindings.filter((b) => !(isSym(b) && b.sym === '$')).length;
  if (values !== given) {
    throw new ToolError(
      'INVALID_PARAMS',
      `The query's :in takes ${values} value(s) after $, and inputs has ${given}. Give one input per :in variable, in order.`,
      { field: 'inputs' },
    );
  }
}

/**
 * `query` rewritten so that its answer is the one it gives on the graph without the blocks hidden
 * from AI, or a DatalogRefusal (INVALID_PARAMS) saying what to write instead.
 */
export function guardQuery(query: string, inputCount: number): string {
  if (query.includes(OWN_PREFIX)) {
    throw new DatalogRefusal(`Variables starting ${OWN_PREFIX} are reserved.`, 'Rename them.');
  }
  const sections = sectionsOf(query);
  const find = sections.get('find')!;
  checkFind(find);
  checkInputs(sections.get('in'), inputCount);
  for (const name of ['with', 'keys', 'strs', 'syms'] as const) {
    for (const item of sections.get(name) ?? []) {
      if (name === 'with' ? !isVar(item) : !(isSym(item) || typeof item === 'string')) {
        throw new DatalogRefusal(
          `:${name} has ${show(item)}.`,
          name === 'with' ? ':with takes variables.' : `:${name} takes names.`,
        );
      }
    }
  }
  const timeout = sections.get('timeout');
  if (timeout && !(timeout.length === 1 && typeof timeout[0] === 'number')) {
    throw new DatalogRefusal(':timeout takes one number of milliseconds.', 'Write :timeout 5000.');
  }
  const guarder = new Guarder();
  const guarded = new Set<string>();
  const where = [...guarder.clauses(sections.get('where') ?? [], guarded), ...guarder.pulls(find, guarded)];
  const out: Edn[] = [];
  for (const name of SECTIONS) {
    const items =
      name === 'where' ? (where.length > 0 || sections.has('where') ? where : undefined) : sections.get(name);
    if (items !== undefined) out.push(kw(name), ...items);
  }
  return toEDNString(out);
}

/** `[:find (count ?b) . …]`: how many blocks are hidden from AI, for the answer's note. */
export const HIDDEN_COUNT_QUERY = `[:find (count ?b) . :in $ [?tag ...] :where ${HIDDEN_CLAUSES}]`;
