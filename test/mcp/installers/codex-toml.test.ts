/**
 * Codex's config.toml through the installers, with real files: only our table changes, whatever
 * the rest holds (comments, CRLF, a BOM, multi-line strings that look like tables, other servers'
 * sub-tables); install then uninstall gives the file back byte for byte; a file that is not TOML,
 * or an entry of ours written as something other than our own table, is refused and left as it
 * was; the backup, the file's mode and secrets in previews behave as for the JSON clients.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { InstallerError } from '../../../src-mcp/installers/installer-error.ts';
import {
  BACKUP_SUFFIX,
  getClient,
  install,
  previewChange,
  uninstall,
} from '../../../src-mcp/installers/installer.ts';
import { linuxOptions, modeOf, readText, tempHomeForEachTest, writeConfig } from './helpers.ts';

const t = tempHomeForEachTest();
const codexFile = () => path.join(t.home, '.codex', 'config.toml');

/** A config as people have them: settings, profiles, quoted keys, other servers with sub-tables. */
const CODEX_CONFIG = `# Codex settings
model = "gpt-5-codex"
approval_policy = "on-request"

[projects."/home/me/work"]
trust_level = "trusted"

[mcp_servers.docs]
command = "npx"
args = ["-y", "@acme/docs-mcp"]   # pinned below
startup_timeout_sec = 20

[mcp_servers.docs.env]
DOCS_API_KEY = "sk-live-abcdefghijklmnopqrstuvwx"

[mcp_servers.figma]
url = "http://127.0.0.1:3845/mcp"
bearer_token_env_var = "FIGMA_TOKEN"

[profiles.fast]
model = "o4-mini"
notes = """
[mcp_servers.roam-companion]
command = "this is text, not a table"
"""
`;

const ourTable = () =>
  `[mcp_servers.roam-companion]\ncommand = ${JSON.stringify(t.launcher.command)}\nargs = [${JSON.stringify(t.launcher.args[0])}]\n`;

async function refused(text: string, message: RegExp): Promise<void> {
  await writeConfig(codexFile(), text);
  const before = await stat(codexFile());
  for (const attempt of [
    () => install('codex', linuxOptions(t)),
    () => uninstall('codex', linuxOptions(t)),
    () => previewChange('codex', 'install', linuxOptions(t)),
  ]) {
    const error = await attempt().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InstallerError);
    expect((error as InstallerError).code).toBe('CONFIG_INVALID');
    expect((error as InstallerError).message).toMatch(message);
    // Only where, never what: the file may hold secrets.
    expect((error as InstallerError).message).not.toContain('sk-live');
  }
  expect(await readText(codexFile())).toBe(text);
  expect((await stat(codexFile())).mtimeMs).toBe(before.mtimeMs);
  expect((await getClient('codex', linuxOptions(t))).state).toBe('unavailable');
}

describe('Codex config.toml', () => {
  it('appends only our table, keeps every byte of the rest, backs up, keeps the mode; uninstall gives the file back', async () => {
    await writeConfig(codexFile(), CODEX_CONFIG, 0o640);
    const result = await install('codex', linuxOptions(t));
    expect(result).toMatchObject({ changed: true, client: { state: 'installed', transport: 'stdio' } });
    expect(await readText(codexFile())).toBe(`${CODEX_CONFIG}\n${ourTable()}`);
    expect(await modeOf(codexFile())).toBe(0o640);
    expect(await readText(codexFile() + BACKUP_SUFFIX)).toBe(CODEX_CONFIG);

    expect((await install('codex', linuxOptions(t))).changed).toBe(false);
    expect((await uninstall('codex', linuxOptions(t))).changed).toBe(true);
    expect(await readText(codexFile())).toBe(CODEX_CONFIG);
  });

  it('replaces our table where it stands (sub-tables included), keeping what the user added and the next table', async () => {
    const mine = `model = "o3"

[mcp_servers.roam-companion]
command = "/moved/away/node"
args = ["/moved/away/roam-mcp.mjs", "--read-only"]
startup_timeout_sec = 30

[mcp_servers.roam-companion.env]
ROAM_GRAPH = "work"

# the next one is mine
[mcp_servers.other]
command = "other"
`;
    await writeConfig(codexFile(), mine);
    expect((await getClient('codex', linuxOptions(t))).state).toBe('stale');
    await install('codex', linuxOptions(t));
    const text = await readText(codexFile());
    expect(text).toBe(`model = "o3"

[mcp_servers.roam-companion]
command = ${JSON.stringify(t.launcher.command)}
args = [${JSON.stringify(t.launcher.args[0])}, "--read-only"]
startup_timeout_sec = 30
env = { ROAM_GRAPH = "work" }

# the next one is mine
[mcp_servers.other]
command = "other"
`);
    expect(await getClient('codex', linuxOptions(t))).toMatchObject({
      state: 'installed',
      customOptions: { args: ['--read-only'], env: ['ROAM_GRAPH'] },
    });
    await uninstall('codex', linuxOptions(t));
    expect(await readText(codexFile())).toBe(`model = "o3"

# the next one is mine
[mcp_servers.other]
command = "other"
`);
  });

  it('keeps CRLF line endings and a BOM, and writes a new file 0600 when only the folder exists', async () => {
    const crlf = '\uFEFFmodel = "o3"\r\n\r\n[mcp_servers.a]\r\ncommand = "a"\r\n';
    await writeConfig(codexFile(), crlf);
    await install('codex', linuxOptions(t));
    const text = await readText(codexFile());
    expect(text.startsWith(crlf)).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    await uninstall('codex', linuxOptions(t));
    expect(await readText(codexFile())).toBe(crlf);

    const fresh = path.join(t.home, 'fresh');
    await writeConfig(path.join(fresh, '.codex', 'keep'), '');
    await install('codex', { ...linuxOptions(t), home: fresh });
    expect(await modeOf(path.join(fresh, '.codex', 'config.toml'))).toBe(0o600);
  });

  it('honours CODEX_HOME', async () => {
    const home = path.join(t.home, 'codex-home');
    await writeConfig(path.join(home, 'keep'), '');
    const view = await install('codex', linuxOptions(t, { CODEX_HOME: home }));
    expect(view.client.configPath).toBe(path.join(home, 'config.toml'));
  });

  it('refuses a file that is not TOML, naming the line and column, and leaves it untouched', async () => {
    await refused(
      `${CODEX_CONFIG}[mcp_servers.bad\n`,
      /is not valid TOML \(.+\) at line 26, column 17, so Codex cannot read it either/,
    );
    await refused('model = o3\n', /is not valid TOML \(invalid value\) at line 1/);
    await refused('notes = """never closed\n[mcp_servers.x]\n', /\(unfinished string\) at line 1/);
    await refused('a = 1\na = 2\n', /\(trying to redefine an already defined table or value\) at line 2/);
    // The message names where, never what the line holds.
    await refused(
      'k = "sk-live-abcdefghijklmnopqrstuvwx" extra\n',
      /^(?!.*sk-live).*end-of-line\) at line 1/s,
    );
  });

  it('refuses an entry of ours written other than as its own table, rather than guess', async () => {
    await refused(
      '[mcp_servers]\nroam-companion = { command = "node", args = ["x"] }\n',
      /defines "roam-companion" in a form Roam Companion does not edit/,
    );
    await refused(
      '[mcp_servers.roam-companion]\ncommand = "node"\n\n[other]\nx = 1\n\n[mcp_servers.roam-companion.env]\nA = "b"\n',
      /does not edit/,
    );
    await refused('mcp_servers.roam-companion.command = "node"\n', /does not edit/);
  });

  it('a preview hides secrets in other servers’ entries', async () => {
    await writeConfig(codexFile(), CODEX_CONFIG);
    const preview = await previewChange('codex', 'install', linuxOptions(t));
    expect(preview.before).not.toContain('sk-live');
    expect(preview.after).toContain('DOCS_API_KEY = "<hidden>"');
    expect(preview.after).toContain('bearer_token_env_var = "FIGMA_TOKEN"');
  });

  it('install then uninstall gives back any file of tables and values byte for byte', async () => {
    const bare = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
    const value = fc.oneof(
      fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s)),
      fc.integer().map(String),
      fc.constantFrom('true', 'false', '1979-05-27T07:32:00Z', "'literal [x]'", '"""\nmulti\n[y]\n"""'),
      fc.array(fc.integer(), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
    );
    const line = fc.oneof(
      fc.tuple(bare, value).map(([k, v]) => `${k} = ${v}`),
      fc.constantFrom('', '# comment', '  # indented comment'),
    );
    const table = fc.tuple(bare, fc.array(line, { maxLength: 4 })).map(([name, lines]) => ({ name, lines }));
    const file = fc
      .tuple(
        fc.array(line, { maxLength: 3 }),
        fc.uniqueArray(table, { selector: (x) => x.name, maxLength: 4 }),
      )
      .filter(([top, tables]) => {
        const keys = (lines: string[]) => lines.map((l) => /^(\S+) =/.exec(l)?.[1]).filter(Boolean);
        const unique = (lines: string[]) => new Set(keys(lines)).size === keys(lines).length;
        const names = new Set(keys(top));
        return unique(top) && tables.every((x) => unique(x.lines) && !names.has(x.name));
      })
      .map(
        ([top, tables]) =>
          [...top, ...tables.flatMap((x) => [`[mcp_servers.${x.name}]`, ...x.lines])].join('\n') + '\n',
      );
    await fc.assert(
      fc.asyncProperty(file, async (text) => {
        await writeConfig(codexFile(), text);
        await install('codex', linuxOptions(t));
        const installed = await readText(codexFile());
        expect(installed.startsWith(text)).toBe(true);
        await uninstall('codex', linuxOptions(t));
        expect(await readText(codexFile())).toBe(text);
      }),
      // A file of blank lines only: the install adds no blank line before our table, so none goes.
      { numRuns: 40, examples: [['\n\n'], [' \n\n\n']] },
    );
  });

  it('over generated configs (inline tables, dotted keys, comments, arrays of tables) the result always parses, other servers stay, uninstall gives the file back', async () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/);
    const scalar = fc.oneof(
      fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
      fc.integer({ min: -99, max: 99 }).map(String),
      fc.constantFrom('true', '1.5', "'lit [x]'", '"""\n[mcp_servers.fake]\n"""', '[1, 2]', '1979-05-27'),
    );
    const comment = fc.constantFrom('', '# a comment', '  # [mcp_servers.not_a_table]');
    /** One server, written each way TOML allows. */
    const form = fc.constantFrom(
      'table',
      'table-inline-env',
      'table-dotted-env',
      'dotted-root',
      'inline-in-header',
      'dotted-in-header',
    );
    const file = fc
      .record({
        top: fc.uniqueArray(fc.tuple(name, scalar), { selector: ([k]) => k, maxLength: 3 }),
        servers: fc.uniqueArray(fc.tuple(name, scalar, form), { selector: ([n]) => n, maxLength: 4 }),
        tables: fc.uniqueArray(fc.tuple(name, fc.boolean(), scalar, comment), {
          selector: ([n]) => n,
          maxLength: 3,
        }),
        inlineAll: fc.boolean(),
        comments: fc.array(comment, { minLength: 4, maxLength: 4 }),
      })
      .map(({ top, servers, tables, inlineAll, comments }) => {
        const root = top.map(([k, v]) => `${k} = ${v}`);
        const sections: string[] = [];
        const header: string[] = [];
        if (inlineAll && servers.length) {
          const all = servers.map(([n, v]) => `${n} = { command = "c", x = ${v} }`).join(', ');
          root.push(`mcp_servers = { ${all} }`);
        } else {
          for (const [n, v, how] of servers) {
            if (how === 'dotted-root')
              root.push(`mcp_servers.${n}.command = "c"`, `mcp_servers.${n}.x = ${v}`);
            else if (how === 'inline-in-header') header.push(`${n} = { command = "c", x = ${v} }`);
            else if (how === 'dotted-in-header') header.push(`${n}.command = "c"`, `${n}.x = ${v}`);
            else {
              sections.push(`[mcp_servers.${n}]`, 'command = "c"', `x = ${v}`, comments[0]!);
              if (how === 'table-inline-env') sections.push('env = { A = "b" }');
              if (how === 'table-dotted-env') sections.push('env.A = "b"');
            }
          }
        }
        if (header.length) sections.unshift('[mcp_servers]', ...header, comments[1]!);
        for (const [n, array, v, c] of tables)
          sections.push(array ? `[[t_${n}]]` : `[t_${n}]`, `k = ${v}`, c);
        return [comments[2]!, ...root, comments[3]!, ...sections].join('\n') + '\n';
      })
      .filter((text) => {
        try {
          parseToml(text);
          return true;
        } catch {
          return false;
        }
      });
    const othersOf = (text: string) => {
      const { mcp_servers: servers = {}, ...rest } = parseToml(text) as {
        mcp_servers?: Record<string, unknown>;
      };
      const { 'roam-companion': _ours, ...others } = servers;
      return { rest, others };
    };
    const http = { url: 'http://127.0.0.1:39017/mcp', key: 'roam-mcp-key-abcdefghijklmnopqrstuvwxyz' };
    await fc.assert(
      fc.asyncProperty(file, fc.boolean(), async (text, overHttp) => {
        await writeConfig(codexFile(), text);
        const opts = { ...linuxOptions(t), ...(overHttp ? { http } : {}) };
        const outcome = await install('codex', opts).then(
          () => undefined,
          (e: unknown) => e,
        );
        const installed = await readText(codexFile());
        if (/^mcp_servers = \{/m.test(text)) {
          // Ours cannot stand beside an inline table: refused, the file as it was.
          expect(outcome).toBeInstanceOf(InstallerError);
          expect(installed).toBe(text);
          return;
        }
        expect(outcome).toBeUndefined();
        const after = parseToml(installed) as { mcp_servers: Record<string, unknown> };
        expect(after.mcp_servers['roam-companion']).toBeDefined();
        expect(othersOf(installed)).toEqual(othersOf(text));
        await uninstall('codex', opts);
        expect(await readText(codexFile())).toBe(text);
      }),
      { numRuns: 60 },
    );
  });
});
