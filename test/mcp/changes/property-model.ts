/**
 * The random worlds of the undo property: a graph (pages, nested blocks, page links, tags and
 * block references), an agent's writes through the MCP tools, and a person's edits made directly
 * in the emulator. Commands name their targets by index into what exists when they run, so any
 * sequence (and any shrunk one) runs.
 */
import fc from 'fast-check';
import type { EmulatedGraph } from '../../emulator/index.ts';
import { jsonOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { expandedTexts, inlineBlockRefs } from '../../emulator/link-rewrite.ts';
import { creationOrder, graphSnapshot, type EntitySnapshot } from './graph-snapshot.ts';

const WORDS = ['apple', 'river', 'stone', 'cloud', 'maple', 'ember', 'quartz', 'linen'];
const TITLES = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Omega'];

export type Token =
  { w: number } | { link: number } | { newLink: number } | { tag: number } | { ref: number };

export interface OutlineNode {
  text: Token[];
  heading?: 1 | 2;
  children: OutlineNode[];
}

const token: fc.Arbitrary<Token> = fc.oneof(
  { weight: 4, arbitrary: fc.nat(7).map((w) => ({ w })) },
  { weight: 1, arbitrary: fc.nat(20).map((link) => ({ link })) },
  { weight: 1, arbitrary: fc.nat(20).map((newLink) => ({ newLink })) },
  { weight: 1, arbitrary: fc.nat(20).map((tag) => ({ tag })) },
  { weight: 2, arbitrary: fc.nat(50).map((ref) => ({ ref })) },
);
const text = fc.array(token, { minLength: 1, maxLength: 4 });
const leaf = fc.record({ text, children: fc.constant([] as OutlineNode[]) });
const node: fc.Arbitrary<OutlineNode> = fc.record(
  {
    text,
    heading: fc.constantFrom(1 as const, 2 as const),
    children: fc.array(leaf, { maxLength: 2 }),
  },
  { requiredKeys: ['text', 'children'] },
);
const outline = fc.array(node, { minLength: 1, maxLength: 2 });
const order = fc.oneof(fc.constant('last' as const), fc.nat(3));
const pick = fc.nat(60);

export type AgentCommand =
  | { k: 'create'; parent: number; outline: OutlineNode[]; order: number | 'last' }
  | { k: 'page'; outline?: OutlineNode[] }
  | { k: 'update'; block: number; text: Token[]; heading?: 0 | 1 }
  | { k: 'move'; block: number; parent: number; order: number | 'last' }
  | { k: 'delete'; block: number }
  | { k: 'deleteMany'; a: number; b: number; twice: boolean }
  | { k: 'rename'; page: number; spaced: boolean }
  | { k: 'deletePage'; page: number };

export const agentCommand: fc.Arbitrary<AgentCommand> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ k: fc.constant('create' as const), parent: pick, outline, order }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('page' as const), outline }, { requiredKeys: ['k'] }) },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        k: fc.constant('update' as const),
        block: pick,
        text,
        heading: fc.constantFrom(0 as const, 1 as const),
      },
      { requiredKeys: ['k', 'block', 'text'] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('move' as const), block: pick, parent: pick, order }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('delete' as const), block: pick }) },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('deleteMany' as const), a: pick, b: pick, twice: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('rename' as const), page: pick, spaced: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('deletePage' as const), page: pick }) },
);

export type PersonCommand =
  | { k: 'p-update'; block: number; text: Token[] }
  | { k: 'p-add'; parent: number; text: Token[] }
  | { k: 'p-delete'; block: number }
  | { k: 'p-move'; block: number; parent: number }
  | { k: 'p-paste'; block: number };

export const personCommand: fc.Arbitrary<PersonCommand> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ k: fc.constant('p-update' as const), block: pick, text }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('p-add' as const), parent: pick, text }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('p-delete' as const), block: pick }) },
  // Onto a page or under a block, the agent's or the person's, nested or not.
  { weight: 2, arbitrary: fc.record({ k: fc.constant('p-move' as const), block: pick, parent: pick }) },
  // Delete a block and write one with the same text in its place.
  { weight: 1, arbitrary: fc.record({ k: fc.constant('p-paste' as const), block: pick }) },
);

/** A starting graph: pages with nested blocks (their text may refer to earlier blocks). */
export const startGraph = fc.array(fc.array(node, { maxLength: 3 }), { minLength: 2, maxLength: 4 });

/** What exists now, to resolve command indices against. */
export class World {
  private serial = 0;

  constructor(
    readonly graph: EmulatedGraph,
    readonly run: number,
  ) {}

  snapshot(): EntitySnapshot[] {
    return graphSnapshot(this.graph);
  }

  /**
   * Pages and blocks in the order they were made, so a command's index picks the same entity on
   * every run of a seed (uids Roam makes are random: ordered by uid, a seed would not replay).
   */
  pages = () => this.inCreationOrder().filter((e) => e.title !== undefined);
  blocks = () => this.inCreationOrder().filter((e) => e.string !== undefined);

  private inCreationOrder(): EntitySnapshot[] {
    const made = creationOrder(this.graph);
    return this.snapshot().sort((a, b) => (made.get(a.uid) ?? 0) - (made.get(b.uid) ?? 0));
  }

  fresh(prefix: string): string {
    this.serial += 1;
    return `${prefix}${this.run}x${this.serial}`;
  }

  /** A token's text: words, links to pages that exist or not, single-word tags, block refs. */
  write(tokens: Token[]): string {
    const pages = this.pages();
    const blocks = this.blocks();
    const tags = pages.filter((p) => /^\w+$/.test(p.title as string));
    return tokens
      .map((t) => {
        if ('w' in t) return WORDS[t.w % WORDS.length];
        if ('link' in t) return pages.length ? `[[${pages[t.link % pages.length]?.title}]]` : 'nolink';
        if ('newLink' in t) return `[[Topic ${t.newLink}]]`;
        if ('tag' in t) return tags.length ? `#${tags[t.tag % tags.length]?.title}` : 'notag';
        return blocks.length ? `((${blocks[t.ref % blocks.length]?.uid}))` : 'noref';
      })
      .join(' ');
  }

  markdown(nodes: OutlineNode[], depth = 0): string {
    return nodes
      .map((n) => {
        const line = `${'  '.repeat(depth)}- ${n.heading ? `${'#'.repeat(n.heading)} ` : ''}${this.write(n.text)}`;
        return [line, ...(n.children.length ? [this.markdown(n.children, depth + 1)] : [])].join('\n');
      })
      .join('\n');
  }

  /** Builds the starting graph directly in the emulator (the person's own content). */
  build(pages: OutlineNode[][]): void {
    pages.forEach((blocks, i) => {
      const uid = this.fresh('pg');
      this.graph.run('data.page.create', [
        { page: { title: `${TITLES[i % TITLES.length]}${this.run}`, uid } },
      ]);
      this.addBlocks(uid, blocks);
    });
  }

  private addBlocks(parent: string, nodes: OutlineNode[]): void {
    for (const n of nodes) {
      const uid = this.fresh('b');
      const block = { uid, string: this.write(n.text), ...(n.heading ? { heading: n.heading } : {}) };
      this.graph.run('data.block.create', [{ location: { 'parent-uid': parent, order: 'last' }, block }]);
      this.addBlocks(uid, n.children);
    }
  }

  /** Removes everything (between runs, as the person). */
  clear(): void {
    for (const page of this.pages()) {
      if (this.graph.run('data.q', ['[:find ?e . :in $ ?u :where [?e :block/uid ?u]]', page.uid]) != null)
        this.graph.run('data.page.delete', [{ page: { uid: page.uid } }]);
    }
  }
}

const at = <T>(list: T[], index: number): T | undefined =>
  list.length ? list[index % list.length] : undefined;

/** Runs an agent command through the bin; a refusal (e.g. moving a block under itself) is fine. */
export async function runAgent(mcp: McpHandle, world: World, c: AgentCommand): Promise<void> {
  const blocks = world.blocks();
  const pages = world.pages();
  const parents = [...pages, ...blocks];
  switch (c.k) {
    case 'create': {
      const parent = at(parents, c.parent);
      if (parent)
        await mcp.call('create_block', {
          parentUid: parent.uid,
          markdown: world.markdown(c.outline),
          order: c.order,
        });
      return;
    }
    case 'page':
      jsonOf(
        await mcp.call('create_page', {
          title: world.fresh('Made '),
          ...(c.outline ? { markdown: world.markdown(c.outline) } : {}),
        }),
      );
      return;
    case 'update': {
      const block = at(blocks, c.block);
      if (block)
        await mcp.call('update_block', {
          uid: block.uid,
          string: world.write(c.text),
          ...(c.heading !== undefined ? { heading: c.heading } : {}),
        });
      return;
    }
    case 'move': {
      const block = at(blocks, c.block);
      const parent = at(parents, c.parent);
      if (block && parent)
        await mcp.call('move_block', { uid: block.uid, parentUid: parent.uid, order: c.order });
      return;
    }
    case 'delete': {
      const block = at(blocks, c.block);
      if (block) await mcp.call('delete_block', { uid: block.uid });
      return;
    }
    case 'deleteMany': {
      // A batch may name a block twice (Roam deletes it once).
      const a = at(blocks, c.a)?.uid;
      const uids = [a, at(blocks, c.b)?.uid, ...(c.twice ? [a] : [])].filter((u): u is string => !!u);
      if (uids.length) await mcp.call('delete_blocks', { uids });
      return;
    }
    case 'rename': {
      const page = at(pages, c.page);
      if (page)
        await mcp.call('update_page', {
          uid: page.uid,
          title: world.fresh(c.spaced ? 'Renamed ' : 'Renamed'),
        });
      return;
    }
    case 'deletePage': {
      const page = at(pages, c.page);
      if (page) await mcp.call('delete_page', { uid: page.uid });
      return;
    }
  }
}

/** What a person's edits must leave behind: per uid, gone, or there (with this text, if they wrote it). */
export type Expectations = Map<string, { exists: false } | { exists: true; string?: string }>;

/** Runs a person's edit in the emulator and notes what must survive the undo. */
export function runPerson(world: World, c: PersonCommand, expect: Expectations): void {
  const blocks = world.blocks();
  const person = world.graph.asPerson('Bea');
  // "bea" marks a person's text: it never equals what the agent wrote.
  const mine = (tokens: Token[]) => `bea ${world.write(tokens)}`;
  if (c.k === 'p-update') {
    const block = at(blocks, c.block);
    if (!block) return;
    const string = mine(c.text);
    person.run('data.block.update', [{ block: { uid: block.uid, string } }]);
    expect.set(block.uid, { exists: true, string });
  } else if (c.k === 'p-add') {
    const parent = at([...world.pages(), ...blocks], c.parent);
    if (!parent) return;
    const uid = world.fresh('p');
    const string = mine(c.text);
    person.run('data.block.create', [
      { location: { 'parent-uid': parent.uid, order: 'last' }, block: { uid, string } },
    ]);
    expect.set(uid, { exists: true, string });
  } else if (c.k === 'p-move') {
    const block = at(blocks, c.block);
    const parent = at([...world.pages(), ...blocks], c.parent);
    if (!block || !parent || parent.uid === block.uid) return;
    if (descendants(world.snapshot(), block.uid).includes(parent.uid)) return;
    person.run('data.block.move', [
      { location: { 'parent-uid': parent.uid, order: 'last' }, block: { uid: block.uid } },
    ]);
    // Moved among its siblings only, the agent's block is still where the change left it (under
    // its parent, docs/undo.md "The ownership rule"): undoing its create may delete it.
    if (block.parent === parent.uid) return;
    // Where the person put it, it stays: the undo may take back the agent's edits of its text,
    // but never deletes it.
    const wanted = expect.get(block.uid);
    expect.set(block.uid, {
      exists: true,
      ...(wanted?.exists && wanted.string !== undefined ? { string: wanted.string } : {}),
    });
  } else {
    const block = at(blocks, c.block);
    if (!block) return;
    const all = world.snapshot();
    const gone = [block.uid, ...descendants(all, block.uid)];
    const texts = expandedTexts(
      new Map(gone.map((uid) => [uid, all.find((e) => e.uid === uid)?.string ?? ''])),
    );
    person.run('data.block.delete', [{ block: { uid: block.uid } }]);
    // Roam's rewrite of texts that referred to what the person deleted is part of their edit. It
    // rewrites only the text a block holds now: one the agent deleted, or a text the agent
    // overwrote, comes back from the undo as it was (with its `((uid))`).
    const now = new Map(all.map((e) => [e.uid, e.string]));
    for (const [uid, wanted] of expect)
      if (wanted.exists && wanted.string !== undefined && now.get(uid) === wanted.string)
        expect.set(uid, { exists: true, string: inlineBlockRefs(wanted.string, texts) });
    for (const uid of gone) expect.set(uid, { exists: false });
    if (c.k === 'p-paste' && block.parent) {
      const uid = world.fresh('p');
      const string = block.string ?? '';
      const order = block.order ?? 'last';
      person.run('data.block.create', [
        { location: { 'parent-uid': block.parent, order }, block: { uid, string } },
      ]);
      expect.set(uid, { exists: true, string });
    }
  }
}

function descendants(all: EntitySnapshot[], uid: string): string[] {
  const below = (parent: string): string[] =>
    all.filter((e) => e.parent === parent).flatMap((e) => [e.uid, ...below(e.uid)]);
  return below(uid);
}
