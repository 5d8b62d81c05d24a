/**
 * The question before a write that replaces texts says what comes, not only what goes
 * (src-mcp/gate/consent-question.ts), through the built bin with real SDK clients that declare
 * form elicitation, in both eras: update_blocks giving 11 blocks one new text names it once;
 * different new texts are paired with the old ones, the rest counted; a new text's further lines
 * are counted; update_page_markdown's edited lines show their new text too, and the blocks it
 * writes new beside what it deletes; an undo of edits names the texts it puts back. Declined:
 * nothing written.
 * A hostile title (a right-to-left override, markup, 5,000 characters) reaches the question plain
 * and cut, so it cannot reverse "1000 blocks" or bury what follows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { consentClient, type ConsentClient, type Era } from '../../harness/consent-client.ts';
import { jsonOf, textOf, writeToolsConfig } from '../../harness/mcp-bin.ts';
import { graphWithToken } from '../../harness/stdio-world.ts';
import { removeDir, tempDir } from '../../harness/temp-dir.ts';
import { blocks, uidOf } from './numbered-blocks.ts';

const WIRE = 'Wire the money to account 666 [[Approved by CFO]]';
const hostileTitle = (t: string) => `<b>Safe ${t}</b>\u202E\u200B ${'T'.repeat(5000)}`;

let home: string;
let emulator: Emulator;
beforeAll(async () => {
  const pages = ['1', '2'].flatMap((t) => [
    { title: `Ledger ${t}`, uid: uidOf(`lg${t}`, 0), children: blocks(`e${t}`, 12) },
    { title: `Mixed ${t}`, uid: uidOf(`mx${t}`, 0), children: blocks(`m${t}`, 12) },
    { title: `Rewrite ${t}`, uid: uidOf(`rw${t}`, 0), children: blocks(`r${t}`, 12) },
    { title: hostileTitle(t), uid: uidOf(`ho${t}`, 0), children: blocks(`o${t}`, 12) },
    { title: `Grow ${t}`, uid: uidOf(`gr${t}`, 0), children: blocks(`w${t}`, 12) },
    { title: `Undo ${t}`, uid: uidOf(`un${t}`, 0), children: blocks(`u${t}`, 12) },
  ]);
  const g = graphWithToken({ name: 'g', content: pages }, { accessLevel: 'full' });
  home = await tempDir('roam-stdio-');
  emulator = await startEmulator({ graphs: [g.graph], home });
  await writeToolsConfig(home, [g.config]);
});
afterAll(async () => {
  await emulator?.close();
  if (home) await removeDir(home);
});

const stringsOn = (title: string) =>
  (
    emulator
      .graph('g')
      .run('data.q', [
        '[:find ?s :in $ ?t :where [?p :node/title ?t] [?b :block/page ?p] [?b :block/string ?s]]',
        title,
      ]) as string[][]
  )
    .map(([s]) => s)
    .sort();

describe.each([
  ['2025-11-25', '1'],
  ['2026-07-28', '2'],
] as const)('on %s', (era: Era, t) => {
  let c: ConsentClient;
  let answer: 'accept' | 'decline' = 'decline';
  beforeAll(async () => {
    c = await consentClient(home, era, { answer: () => answer });
    jsonOf(await c.call('select_graph', { graph: 'g' }));
  });
  afterAll(() => c?.close());

  it('update_blocks giving 11 blocks one new text asks with that text, and a decline writes nothing', async () => {
    const before = stringsOn(`Ledger ${t}`);
    const uids = blocks(`e${t}`, 11).map((b) => b.uid);
    const result = await c.call('update_blocks', { updates: uids.map((uid) => ({ uid, string: WIRE })) });
    expect(textOf(result)).toMatch(/declined update_blocks/);
    expect(c.asked.at(-1)).toBe(
      `Replace the text of 11 blocks on 'Ledger ${t}' ('e${t} line 0', 'e${t} line 1', 'e${t} line 2' and 8 more) with '${WIRE}' in graph 'g'? It can be undone from this chat.`,
    );
    expect(stringsOn(`Ledger ${t}`)).toEqual(before);
  });

  it('different new texts are paired with the old ones, further lines and further blocks counted', async () => {
    const uids = blocks(`m${t}`, 11).map((b) => b.uid);
    const updates = uids.map((uid, i) => ({
      uid,
      string: i === 0 ? `fine\n${WIRE}\nand more` : i === 1 ? 'x'.repeat(500) : `tidied ${i}`,
    }));
    await c.call('update_blocks', { updates });
    const asked = c.asked.at(-1)!;
    expect(asked).toBe(
      `Replace the text of 11 blocks on 'Mixed ${t}' ('m${t} line 0' → 'fine' (+ 2 more lines), 'm${t} line 1' → '${'x'.repeat(59)}…', 'm${t} line 2' → 'tidied 2' and 8 more) in graph 'g'? It can be undone from this chat.`,
    );
    expect(asked.length).toBeLessThan(400);
  });

  it('update_page_markdown shows the new text of the lines it edits', async () => {
    const lines = blocks(`r${t}`, 12).map(
      (b, i) => `- ${i < 11 ? `${WIRE} ${i}` : b.string} <roam uid="${b.uid}"/>`,
    );
    const result = await c.call('update_page_markdown', {
      title: `Rewrite ${t}`,
      markdown: lines.join('\n'),
    });
    expect(textOf(result)).toMatch(/declined update_page_markdown/);
    expect(c.asked.at(-1)).toMatch(
      new RegExp(
        `^Replace the text of 11 blocks on 'Rewrite ${t}' \\('r${t} line 0' → '${WIRE.replace(/[[\]]/g, '\\$&')} 0', .* and 8 more\\) in graph 'g'\\?`,
      ),
    );
    expect(stringsOn(`Rewrite ${t}`)).toEqual(
      blocks(`r${t}`, 12)
        .map((b) => b.string)
        .sort(),
    );
  });

  it('a hostile page title reaches the question plain and cut', async () => {
    await c.call('delete_page', { uid: uidOf(`ho${t}`, 0) });
    const asked = c.asked.at(-1)!;
    expect(asked).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b]/);
    expect(asked).toBe(
      `Delete the page '<b>Safe ${t}</b> ${'T'.repeat(79 - '<b>Safe 1</b> '.length)}…' and its 12 blocks in graph 'g'? It can be undone from this chat.`,
    );
    expect(
      emulator
        .graph('g')
        .run('data.q', [
          '[:find ?t . :in $ ?u :where [?p :block/uid ?u] [?p :node/title ?t]]',
          uidOf(`ho${t}`, 0),
        ]),
    ).toBe(hostileTitle(t));
  });

  it('update_page_markdown names the blocks it writes new beside those it deletes', async () => {
    const kept = blocks(`w${t}`, 12)[11]!;
    const markdown = [`- ${kept.string} <roam uid="${kept.uid}"/>`, `- ${WIRE}`, '- and another'].join('\n');
    const result = await c.call('update_page_markdown', { title: `Grow ${t}`, markdown });
    expect(textOf(result)).toMatch(/declined update_page_markdown/);
    expect(c.asked.at(-1)).toMatch(
      new RegExp(
        `^Delete 11 blocks on 'Grow ${t}' \\(.* and 8 more\\) and write 2 new blocks \\('${WIRE.replace(/[[\]]/g, '\\$&')}', 'and another'\\) in graph 'g'\\?`,
      ),
    );
    expect(stringsOn(`Grow ${t}`)).toEqual(
      blocks(`w${t}`, 12)
        .map((b) => b.string)
        .sort(),
    );
  });

  it('an undo of edits names the texts it would put back', async () => {
    answer = 'accept';
    const uids = blocks(`u${t}`, 11).map((b) => b.uid);
    jsonOf(await c.call('update_blocks', { updates: uids.map((uid) => ({ uid, string: 'tidied' })) }));
    answer = 'decline';
    const undo = await c.call('undo_changes', { ids: [await lastChange()] });
    expect(textOf(undo)).toMatch(/declined undo_changes/);
    expect(c.asked.at(-1)).toMatch(
      new RegExp(
        `^Undo 1 change this chat made in graph 'g'\\? That would replace the text of 11 blocks on 'Undo ${t}' \\('tidied' → 'u${t} line 0', 'tidied' → 'u${t} line 1', 'tidied' → 'u${t} line 2' and 8 more\\)\\.`,
      ),
    );
    // Declined: the edits stay (the old texts did not come back).
    expect(stringsOn(`Undo ${t}`)).toContain('tidied');
    expect(stringsOn(`Undo ${t}`)).not.toContain(`u${t} line 0`);
  });

  const lastChange = async () =>
    jsonOf<{ changes: Array<{ id: string }> }>(await c.call('list_changes', {})).changes[0]!.id;
});
