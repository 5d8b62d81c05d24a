import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAction } from './http-client.ts';
import { demoGraphContent, generateGraph, startEmulator } from './index.ts';
import type { BlockSpec, Emulator, PageSpec } from './types.ts';
import { tempDir } from '../harness/temp-dir.ts';

function allBlocks(pages: PageSpec[]): Array<Exclude<BlockSpec, string>> {
  const out: Array<Exclude<BlockSpec, string>> = [];
  const walk = (blocks: BlockSpec[] = []) => {
    for (const block of blocks) {
      const spec = typeof block === 'string' ? { string: block } : block;
      out.push(spec);
      walk(spec.children);
    }
  };
  for (const page of pages) walk(page.children);
  return out;
}

describe('generateGraph', () => {
  it('is deterministic per seed and different across seeds', () => {
    const a = generateGraph({ blocks: 500, seed: 7 });
    expect(generateGraph({ blocks: 500, seed: 7 })).toEqual(a);
    expect(generateGraph({ blocks: 500, seed: 8 })).not.toEqual(a);
  });

  it('makes exactly the requested number of blocks, nested, with daily pages, tags and attributes', () => {
    for (const blocks of [100, 2_000]) {
      const pages = generateGraph({ blocks, seed: 3 });
      const all = allBlocks(pages);
      expect(all).toHaveLength(blocks);
      expect(pages.some((p) => p.daily)).toBe(true);
      expect(all.some((b) => b.children?.length)).toBe(true);
      expect(all.some((b) => /#[a-z]+/.test(b.string))).toBe(true);
      expect(all.some((b) => /^\w+:: /.test(b.string))).toBe(true);
      expect(new Set(all.map((b) => b.uid)).size).toBe(blocks);
    }
  });

  it('links follow a power law: the top page gets far more links than the median one', () => {
    const counts = new Map<string, number>();
    for (const block of allBlocks(generateGraph({ blocks: 3_000, seed: 11 }))) {
      for (const [, title] of block.string.matchAll(/\[\[([^\]]+)\]\]/g))
        counts.set(title!, (counts.get(title!) ?? 0) + 1);
    }
    const sorted = [...counts.values()].sort((a, b) => b - a);
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    expect(sorted[0]).toBeGreaterThan(20 * median);
  });

  it('refuses a block count that is not a positive integer', () => {
    expect(() => generateGraph({ blocks: 0 })).toThrow(
      'generateGraph: "blocks" must be a positive integer, got 0.',
    );
  });
});

describe('loaded into the emulator', () => {
  let home: string;
  let emulator: Emulator;

  beforeAll(async () => {
    home = await tempDir('emulator-samples-');
    emulator = await startEmulator({
      home,
      graphs: [
        { name: 'generated', content: { generate: { blocks: 1_000, seed: 5 } } },
        { name: 'demo', content: 'demo', type: 'offline' },
      ],
    });
  });

  afterAll(async () => {
    await emulator.close();
    await rm(home, { recursive: true, force: true });
  });

  it('holds every generated block, and queries over :block/refs see all links', async () => {
    const { blocks, pages } = emulator.graph('generated').counts();
    expect(blocks).toBe(1_000);
    expect(pages).toBeGreaterThan(50);
    const token = emulator.addToken('generated', 'hosted', 'read-only');
    const reply = await callAction(emulator, {
      graph: 'generated',
      token,
      action: 'data.q',
      args: ['[:find (count ?b) . :where [?b :block/refs ?p] [?p :node/title]]'],
    });
    expect(reply.body.result).toBeGreaterThan(500);
  });

  it('has the demo graph with its hand-checkable pages and daily notes', () => {
    const demo = emulator.graph('demo', 'offline');
    expect(demo.counts().blocks).toBe(allBlocks(demoGraphContent()).length);
    expect(demo.run('data.pull', ['[:node/title :log/id]', '[:block/uid "11-22-2026"]'])).toEqual({
      ':node/title': 'November 22nd, 2026',
      ':log/id': Date.UTC(2026, 10, 22),
    });
  });
});
