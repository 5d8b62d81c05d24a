/** Pure pieces of the server: config parsing and editing, CLI arguments, daily-note names, resolution. */
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src-mcp/cli/cli-args.ts';
import { parseConfigText, saveTokenToFile } from '../../../src-mcp/config/config-file.ts';
import {
  removeGraph,
  setDisabled,
  upsertGraph,
  type ConfigDocument,
} from '../../../src-mcp/config/config-edit.ts';
import { expandHome } from '../../../src-mcp/config/load-config.ts';
import { GraphSession } from '../../../src-mcp/roam/graph-session.ts';
import type { ToolError } from '../../../src-mcp/contract/tool-errors.ts';
import { guidelinesHash, guidelinesText } from '../../../src-mcp/tools/core/graphs.ts';
import { dailyNote } from '../../../src-mcp/roam/roam-dates.ts';
import { tempDir } from '../../harness/temp-dir.ts';

describe('parseConfigText', () => {
  it('points at the line and column of a JSON syntax error', () => {
    const { errors } = parseConfigText('{\n  "graphs": [\n    {"name": "a",}\n  ]\n}', '/x/.roam-tools.json');
    expect(errors[0]).toMatch(/^\/x\/\.roam-tools\.json is not valid JSON at line 3, column 18/);
  });

  it('names every field with a wrong type and shows the expected shape', () => {
    const { errors } = parseConfigText(
      JSON.stringify({ graphs: [{ name: 'a', accessLevel: 'admin' }, {}] }),
      'f',
    );
    expect(errors[0]).toMatch(/graphs\[0\]\.accessLevel/);
    expect(errors[0]).toMatch(/graphs\[1\]\.name/);
    expect(errors[0]).toMatch(/Expected \{"version": 1/);
  });

  it('fills nicknames and passes validation problems through, prefixed with the file', () => {
    const ok = parseConfigText(JSON.stringify({ graphs: [{ name: 'a' }] }), 'f');
    expect(ok.graphs).toEqual([{ name: 'a', type: 'hosted', nickname: 'a' }]);
    const clash = parseConfigText(
      JSON.stringify({ graphs: [{ name: 'a' }, { name: 'b', nickname: 'A' }] }),
      'f',
    );
    expect(clash.errors[0]).toMatch(/^f: Nickname 'A'/);
  });
});

describe('saveTokenToFile', () => {
  it('sets token and level on the matching entry only, keeps everything else and the mode', async () => {
    const dir = await tempDir('save-token-');
    const file = path.join(dir, 'c.json');
    await writeFile(
      file,
      JSON.stringify({
        top: 1,
        graphs: [{ name: 'g', x: 2 }, { name: 'g', type: 'offline' }, { name: 'h' }],
      }),
      { mode: 0o644 },
    );
    await saveTokenToFile(file, { name: 'g', type: 'offline' }, 'roam-graph-local-token-T', 'read-only');
    await saveTokenToFile(
      file,
      { name: 'new', type: 'hosted', nickname: 'N' },
      'roam-graph-local-token-U',
      'full',
    );
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      top: 1,
      graphs: [
        { name: 'g', x: 2 },
        { name: 'g', type: 'offline', token: 'roam-graph-local-token-T', accessLevel: 'read-only' },
        { name: 'h' },
        {
          name: 'new',
          type: 'hosted',
          token: 'roam-graph-local-token-U',
          accessLevel: 'full',
          nickname: 'N',
        },
      ],
    });
    // The user's mode is kept (created 0644 above), never changed.
    expect((await stat(file)).mode & 0o777).toBe(0o644);
    await rm(dir, { recursive: true, force: true });
  });
});

describe('config edits', () => {
  const doc: ConfigDocument = {
    version: 1,
    keep: true,
    graphs: [{ name: 'a', nickname: 'Work', z: 1 }, { name: 'b' }],
  };

  it('upserts by name and type, keeping unknown fields, and refuses nickname clashes', () => {
    const next = upsertGraph(doc, { name: 'a', type: 'hosted', token: 'roam-graph-local-token-x' });
    expect(next.graphs[0]).toEqual({ name: 'a', nickname: 'Work', z: 1, token: 'roam-graph-local-token-x' });
    expect(next.keep).toBe(true);
    expect(upsertGraph(doc, { name: 'c', type: 'offline' }).graphs[2]).toEqual({
      name: 'c',
      type: 'offline',
    });
    expect(() => upsertGraph(doc, { name: 'c', type: 'hosted', nickname: 'work' })).toThrow(/clashes/);
    expect(doc.graphs[0]).not.toHaveProperty('token');
  });

  it('removes, disables and enables by nickname or name', () => {
    expect(removeGraph(doc, 'work').graphs.map((g) => g.name)).toEqual(['b']);
    const disabled = setDisabled(doc, 'b', true);
    expect(disabled.graphs[1]).toEqual({ name: 'b', disabled: true });
    expect(setDisabled(disabled, 'b', false).graphs[1]).toEqual({ name: 'b' });
    expect(() => removeGraph(doc, 'zzz')).toThrow(/Configured: Work, b/);
  });
});

describe('CLI arguments', () => {
  it('parses serve, connect, install and mistakes', () => {
    expect(parseCliArgs([])).toEqual({ command: 'serve', readOnly: false });
    expect(parseCliArgs(['--config', '~/c.json', '--read-only'])).toEqual({
      command: 'serve',
      configPath: '~/c.json',
      readOnly: true,
    });
    expect(parseCliArgs(['--config=x.json'])).toMatchObject({ configPath: 'x.json' });
    expect(parseCliArgs(['connect', '--config', 'c.json', '--list'])).toEqual({
      command: 'connect',
      args: ['--list'],
      configPath: 'c.json',
    });
    expect(parseCliArgs(['install', 'cursor'])).toEqual({ command: 'installers' });
    expect(parseCliArgs(['status', '--json'])).toEqual({ command: 'installers' });
    expect(parseCliArgs(['--version'])).toEqual({ command: 'version' });
    expect(parseCliArgs(['--config'])).toMatchObject({ command: 'error', message: /needs a file path/ });
    expect(parseCliArgs(['--bogus'])).toMatchObject({
      command: 'error',
      message: /Unknown argument '--bogus'/,
    });
  });

  it('takes the --name=value forms and names a flag given a value it does not take', () => {
    expect(parseCliArgs(['connect', '--list', '--config=c.json'])).toEqual({
      command: 'connect',
      args: ['--list'],
      configPath: 'c.json',
    });
    // The .mcpb manifest's `--config=${user_config.config_file}` when no file is set: the default lookup.
    expect(parseCliArgs(['--config='])).toEqual({ command: 'serve', readOnly: false });
    expect(parseCliArgs(['connect', '--config'])).toMatchObject({ message: /needs a file path/ });
    expect(parseCliArgs(['--read-only=yes'])).toMatchObject({
      command: 'error',
      message: /Unknown argument '--read-only=yes'/,
    });
    expect(parseCliArgs(['--help', '--bogus'])).toEqual({ command: 'help' });
    expect(parseCliArgs(['--bogus', '--help'])).toMatchObject({ command: 'error' });
  });

  it('expands ~ in config paths', () => {
    expect(expandHome('~/a/b.json', '/home/u')).toBe(path.join('/home/u', 'a/b.json'));
    expect(expandHome('/abs.json', '/home/u')).toBe('/abs.json');
  });
});

describe('daily notes and guidelines', () => {
  it('names daily pages as Roam does', () => {
    expect(dailyNote('2026-11-22')).toEqual({ uid: '11-22-2026', title: 'November 22nd, 2026' });
    expect(dailyNote('2026-01-01').title).toBe('January 1st, 2026');
    expect(dailyNote('2026-03-03').title).toBe('March 3rd, 2026');
    expect(dailyNote('2026-03-11').title).toBe('March 11th, 2026');
    expect(dailyNote('2026-03-13').title).toBe('March 13th, 2026');
    expect(dailyNote(undefined, new Date(2026, 4, 2)).uid).toBe('05-02-2026');
  });

  it('accepts guidelines as a string or {guidelines}, hashes with sha256', () => {
    expect(guidelinesText('# g')).toBe('# g');
    expect(guidelinesText({ guidelines: '# h' })).toBe('# h');
    expect(guidelinesText(null)).toBeNull();
    expect(guidelinesHash('abc')).toBe(
      'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(guidelinesHash(null)).toBeNull();
  });
});

describe('GraphSession resolution', () => {
  const graphs = [
    { name: 'work-2024', type: 'hosted' as const, nickname: 'Work' },
    { name: 'home', type: 'offline' as const, nickname: 'Home', accessLevel: 'read-only' as const },
  ];
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return (error as ToolError).code;
    }
    return 'none';
  };

  it('explicit graph, then selection, then the only graph, else GRAPH_NOT_SELECTED', () => {
    const session = new GraphSession();
    expect(codeOf(() => session.resolve(undefined))).toBe('CONFIG_NOT_FOUND');
    session.setGraphs(graphs);
    expect(codeOf(() => session.resolve(undefined))).toBe('GRAPH_NOT_SELECTED');
    // Resolving never selects: only a call that succeeded does (transactional-selection.test.ts).
    const work = session.resolve('work');
    expect(work.name).toBe('work-2024');
    expect(codeOf(() => session.resolve(undefined))).toBe('GRAPH_NOT_SELECTED');
    session.select(work);
    expect(session.resolve(undefined).name).toBe('work-2024');
    expect(session.resolve('home').name).toBe('home');
    expect(codeOf(() => session.resolve('nope'))).toBe('GRAPH_NOT_FOUND');
    session.setGraphs([graphs[1]!]);
    expect(session.resolve(undefined).name).toBe('home');
  });

  it('tickets are per graph and dropped with the graph; read-only everywhere hides writes', () => {
    const session = new GraphSession();
    session.setGraphs(graphs);
    session.grantTicket(session.resolve('Work'));
    expect(session.hasTicket(session.resolve('Work'))).toBe(true);
    expect(session.hasTicket(session.resolve('Home'))).toBe(false);
    expect(session.anyGraphMayWrite()).toBe(true);
    session.setGraphs([graphs[1]!]);
    expect(session.anyGraphMayWrite()).toBe(false);
    session.setGraphs(graphs);
    expect(session.hasTicket(session.resolve('Work'))).toBe(false);
    expect(session.permissions(session.resolve('Home'))).toEqual(['read']);
    expect(session.permissions(session.resolve('Work'))).toBe('unknown');
  });
});
