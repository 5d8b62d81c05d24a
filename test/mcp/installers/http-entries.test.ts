/**
 * Entries that point a client at the HTTP server, as `status`, `install`'s list and the tray read
 * them (real files: the key store, the running server's address file, each client's config): one
 * at the running or at-login server with a live key is installed, with its key's toolsets; a
 * revoked key, or a URL where no server of ours serves, is stale and says which; a launcher entry
 * stays installed while a server runs. Each client's own http form is read: Cursor's `url` +
 * `headers`, VS Code's and Claude Code's `type: http`, Gemini CLI's `httpUrl`, Codex's `url` with
 * `bearer_token_env_var`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyStore } from '../../../src-mcp/data-folder/key-store.ts';
import { writeAtLoginFile, URL_FILE } from '../../../src-mcp/data-folder/url-file.ts';
import { getClient, install, listClients } from '../../../src-mcp/installers/installer.ts';
import type { InstallerOptions } from '../../../src-mcp/installers/installer-options.ts';
import { linuxOptions, tempHomeForEachTest, writeConfig } from './helpers.ts';

const t = tempHomeForEachTest();
const URL = 'http://127.0.0.1:39017/mcp';
const dataDir = () => path.join(t.home, 'data');
const opts = (env: Record<string, string> = {}): InstallerOptions => ({
  ...linuxOptions(t, env),
  dataDir: dataDir(),
});
const keys = () => new KeyStore({ dir: dataDir() });
const cursorFile = () => path.join(t.home, '.cursor', 'mcp.json');
const cursorEntry = (entry: object) =>
  writeConfig(cursorFile(), JSON.stringify({ mcpServers: { 'roam-companion': entry } }));
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** A server of ours says it serves at `url` (its pid is this live process). */
async function serving(url: string): Promise<void> {
  await mkdir(dataDir(), { recursive: true });
  await writeFile(path.join(dataDir(), URL_FILE), JSON.stringify({ url, pid: process.pid }), { mode: 0o600 });
}

describe('an http entry', () => {
  it('at the running server with a live key is installed, with its key’s toolsets; revoked, it is stale and says so', async () => {
    const { key } = await keys().create('cursor', undefined, 'core,navigation');
    await serving(URL);
    await cursorEntry({ url: URL, headers: bearer(key) });
    const view = await getClient('cursor', opts());
    expect(view).toMatchObject({ state: 'installed', transport: 'http', toolsets: ['core', 'navigation'] });
    expect(view.message).toBeUndefined();

    await keys().revoke('cursor');
    const revoked = await getClient('cursor', opts());
    expect(revoked).toMatchObject({ state: 'stale', transport: 'http' });
    expect(revoked.message).toBe(
      'Its key was revoked or replaced by a newer one, so the server refuses Cursor. ' +
        'Install it again over HTTP to fix it: roam-mcp install cursor --transport http.',
    );
    expect(JSON.stringify(revoked)).not.toContain(key);
  });

  it('at a URL where no server of ours serves is stale, naming where one does', async () => {
    const { key } = await keys().create('cursor');
    await serving('http://127.0.0.1:40000/mcp');
    await cursorEntry({ url: URL, headers: bearer(key) });
    expect((await getClient('cursor', opts())).message).toBe(
      `Our entry points at ${URL}, but the roam-mcp HTTP server serves at http://127.0.0.1:40000/mcp. ` +
        'Install it again over HTTP to fix it: roam-mcp install cursor --transport http.',
    );
  });

  it('at Roam Companion’s at-login address, or the default one with no server, is installed and says nothing serves now', async () => {
    const { key } = await keys().create('cursor');
    await cursorEntry({ url: URL, headers: bearer(key) });
    const idle = await getClient('cursor', opts());
    expect(idle.state).toBe('installed');
    expect(idle.message).toContain(`No roam-mcp HTTP server answers at ${URL} now`);

    await writeAtLoginFile('http://127.0.0.1:4545/mcp', { env: { ROAM_COMPANION_DATA_DIR: dataDir() } });
    expect((await getClient('cursor', opts())).message).toContain(
      'but Roam Companion serves at http://127.0.0.1:4545/mcp',
    );
    await cursorEntry({ url: 'http://127.0.0.1:4545/mcp', headers: bearer(key) });
    expect((await getClient('cursor', opts())).state).toBe('installed');
  });

  it('without a key, or with a key that is not ours, is stale', async () => {
    await serving(URL);
    await cursorEntry({ url: URL });
    expect((await getClient('cursor', opts())).message).toContain('Our entry sends no key');
    await cursorEntry({
      url: URL,
      headers: { authorization: 'Bearer roam-mcp-key-madeUpXXXXXXXXXXXXXXXXXXXX' },
    });
    expect((await getClient('cursor', opts())).message).toContain('Its key was revoked');
  });

  it('is read in each client’s own form: VS Code, Gemini CLI (httpUrl), Codex (key from an environment variable)', async () => {
    await serving(URL);
    const vscode = (await keys().create('vscode')).key;
    await writeConfig(
      path.join(t.home, '.config', 'Code', 'User', 'mcp.json'),
      JSON.stringify({ servers: { 'roam-companion': { type: 'http', url: URL, headers: bearer(vscode) } } }),
    );
    const gemini = (await keys().create('gemini-cli')).key;
    await writeConfig(
      path.join(t.home, '.gemini', 'settings.json'),
      `// mine\n${JSON.stringify({ mcpServers: { 'roam-companion': { httpUrl: URL, headers: bearer(gemini) } } })}`,
    );
    const codex = (await keys().create('codex', undefined, 'core')).key;
    await writeConfig(
      path.join(t.home, '.codex', 'config.toml'),
      `[mcp_servers.roam-companion]\nurl = "${URL}"\nbearer_token_env_var = "ROAM_MCP_KEY"\n`,
    );
    const states = async (env: Record<string, string> = {}) =>
      Object.fromEntries((await listClients(opts(env))).map((v) => [v.id, `${v.state} ${v.transport}`]));
    expect(await states()).toMatchObject({
      vscode: 'installed http',
      'gemini-cli': 'installed http',
      codex: 'installed http',
    });
    // Codex's key is in its environment: checked when we see it, else its name must still be a key.
    const codexView = await getClient('codex', opts());
    expect(codexView).toMatchObject({ toolsets: ['core'] });
    expect(codexView.message).toContain('reads its key from the environment variable ROAM_MCP_KEY');
    expect((await getClient('codex', opts({ ROAM_MCP_KEY: codex }))).message).toBeUndefined();
    expect((await getClient('codex', opts({ ROAM_MCP_KEY: gemini.replace(/.$/, 'x') }))).state).toBe('stale');
    await keys().revoke('codex');
    await keys().revoke('gemini-cli');
    expect(await states()).toMatchObject({
      vscode: 'installed http',
      'gemini-cli': 'stale http',
      codex: 'stale http',
    });
  });

  it('a launcher entry stays installed while a server runs', async () => {
    await serving(URL);
    await writeConfig(cursorFile(), '{}');
    await install('cursor', opts());
    expect(await getClient('cursor', opts())).toMatchObject({ state: 'installed', transport: 'stdio' });
  });
});
