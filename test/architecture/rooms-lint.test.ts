/**
 * src-mcp's room rule (docs/architecture.md, The MCP server) is enforced by eslint.config.js: in
 * each room an import of a room off its list is reported, and every room on its list is not. The
 * lists only point down the floors, every folder of src-mcp is a room of the table, and the rooms
 * picture of docs/architecture.md says the same. That the tree as it stands is clean is `npm run lint`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RULE = 'architecture/src-mcp-rooms';
const eslint = new ESLint({ cwd: root });
/** The plain-JS config, read as data: its floors, top first, each room with the rooms it may import. */
const config: string = '../../eslint.config.js';
const { SRC_MCP_FLOORS } = (await import(config)) as { SRC_MCP_FLOORS: Array<Record<string, string[]>> };

const mayImport: Record<string, string[]> = Object.assign({}, ...SRC_MCP_FLOORS);
const rooms = Object.keys(mayImport);
const floorOf = (room: string) => SRC_MCP_FLOORS.findIndex((floor) => room in floor);

/** A file inside `room` (changes' own room is its public entry). */
const fileIn = (room: string, name: string) =>
  room === 'changes' ? 'src-mcp/changes/index.ts' : `src-mcp/${room}/${name}`;

/** The room messages ESLint reports for `code` as if it were the file at `file`. */
async function roomErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const probe = [];\n`, {
    filePath: path.join(root, file),
  });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

/** `import … from` the room `to`, written as a file of `from` would write it. */
function importOf(from: string, to: string): string {
  const relative = path.relative(path.dirname(fileIn(from, 'probe.ts')), fileIn(to, 'x.ts'));
  return `import { x } from '${relative.startsWith('.') ? relative : `./${relative}`}';`;
}

/** For each room, one room it may not import: the nearest one above it, else any off its list. */
const violations = rooms.map((from) => {
  const off = rooms.filter((to) => to !== from && !mayImport[from]!.includes(to));
  const above = off.filter((to) => floorOf(to) < floorOf(from)).sort((a, b) => floorOf(b) - floorOf(a));
  return [from, above[0] ?? off[0]!] as const;
});

describe('src-mcp room lint rule (docs/architecture.md, The MCP server)', () => {
  it.each(violations)('reports %s importing %s', async (from, to) => {
    const errors = await roomErrors(fileIn(from, 'probe.ts'), importOf(from, to));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`src-mcp/${from}/ may import only`);
    expect(errors[0]).toContain(`not ${to}/`);
  });

  it.each(rooms.flatMap((from) => mayImport[from]!.map((to) => [from, to] as const)))(
    'allows %s importing %s',
    async (from, to) => {
      expect(await roomErrors(fileIn(from, 'probe.ts'), importOf(from, to))).toEqual([]);
    },
  );

  it('sees every way of naming another room: export from, import(), a path up to the public entry', async () => {
    const journal = 'src-mcp/changes/journal/probe.ts';
    expect(await roomErrors(journal, "export { runUndo } from '../undo/undo-engine.ts';")).toHaveLength(1);
    expect(await roomErrors(journal, "export * from '../index.ts';")).toHaveLength(1);
    expect(await roomErrors(journal, "await import('../../server/server.ts');")).toHaveLength(1);
    expect(await roomErrors(journal, "import type { Change } from './types.ts';")).toEqual([]);
    expect(
      await roomErrors('src-mcp/tools/core/probe.ts', "import { x } from '../navigation/index.ts';"),
    ).toEqual([]);
  });

  it('asks for a floor for a folder that is no room', async () => {
    const errors = await roomErrors('src-mcp/attic/probe.ts', "import { log } from '../contract/log.ts';");
    expect(errors).toEqual([expect.stringContaining('src-mcp/attic/ is no room of SRC_MCP_FLOORS')]);
  });

  it('lists only rooms on floors below, and every folder of src-mcp is a room', () => {
    for (const from of rooms) {
      for (const to of mayImport[from]!)
        expect([from, to, floorOf(to) > floorOf(from)]).toEqual([from, to, true]);
    }
    const folders = fs
      .readdirSync(path.join(root, 'src-mcp'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const changes = fs.readdirSync(path.join(root, 'src-mcp/changes'), { withFileTypes: true });
    const changesRooms = changes
      .filter((entry) => entry.isDirectory())
      .map((entry) => `changes/${entry.name}`);
    expect([...folders, ...changesRooms].sort()).toEqual([...rooms].sort());
  });

  it("matches docs/architecture.md's picture of the floors: floor, room and what it may import", () => {
    const doc = fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
    const picture = /^floor +room +may import\n([\s\S]*?)\n```/m.exec(doc)?.[1] ?? '';
    const rows: Array<[number, string, string[]]> = [];
    for (const line of picture.split('\n')) {
      const room = /^(\d+) +([a-z/-]+?)\/?(?:index\.ts)? +(.*)$/.exec(line);
      const words = (room ? room[3]! : line).trim().split(/ +/);
      if (room) rows.push([Number(room[1]), room[2]!, []]);
      if (words[0] !== 'nothing') rows.at(-1)?.[2].push(...words);
    }
    const expected = rooms.map((room) => [SRC_MCP_FLOORS.length - floorOf(room), room, mayImport[room]]);
    expect(rows).toEqual(expected);
  });

  it('docs/architecture.md reads in a plain editor: no line over 160 characters', () => {
    const doc = fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
    expect(doc.split('\n').filter((line) => [...line].length > 160)).toEqual([]);
  });
});
