/** `roam-mcp connect`: flags and prompts, against the emulator's token exchange, on a temp HOME. */
import { spawn } from 'node:child_process';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { binCommand, removeHome, binEnv, tempHome, toolsConfigPath } from '../../harness/mcp-bin.ts';

let home: string;
let configFile: string;
let emulator: Emulator;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `roam-mcp connect ...`; `answers` are typed one per prompt (each after its prompt shows). */
function connect(args: string[], answers: string[] = []): Promise<Run> {
  const child = spawn(...binCommand(['connect', ...args]), { env: binEnv(home), stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  let prompts = 0;
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
    const asked = (stderr.match(/quit: |\]: /g) ?? []).length;
    while (prompts < asked && prompts < answers.length) child.stdin.write(`${answers[prompts++]}\n`);
  });
  if (answers.length === 0) child.stdin.end();
  // A prompt nobody answers would hang the test: give up well before the test timeout.
  const watchdog = setTimeout(() => child.kill(), 20_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(watchdog);
      resolve({ code, stdout, stderr });
    }),
  );
}

const config = async () =>
  JSON.parse(await readFile(configFile, 'utf8')) as {
    graphs: Array<Record<string, unknown>>;
    [k: string]: unknown;
  };

beforeAll(async () => {
  home = await tempHome();
  configFile = toolsConfigPath(home);
  await writeFile(configFile, JSON.stringify({ version: 1, extra: 'kept', graphs: [] }));
  await chmod(configFile, 0o644);
  emulator = await startEmulator({
    home,
    graphs: [
      { name: 'team' },
      { name: 'moody' },
      { name: 'typed' },
      { name: 'vault', type: 'offline' },
      { name: 'again' },
      { name: 'help', public: true },
      { name: 'manual', public: true },
    ],
  });
});

afterAll(async () => {
  await emulator?.close();
  await removeHome(home);
});

describe('roam-mcp connect (flags)', () => {
  it('gets a token for a graph and stores it with nickname and granted level (mode kept, other fields kept)', async () => {
    emulator.decide('team', { kind: 'approve', accessLevel: 'read-append' });
    const run = await connect(['--graph', 'team', '--nickname', 'Team', '--access-level', 'full']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/Connected 'Team' with read-append access \(less than the full requested\)/);
    const file = await config();
    expect(file.extra).toBe('kept');
    expect(file.graphs[0]).toMatchObject({
      name: 'team',
      type: 'hosted',
      nickname: 'Team',
      accessLevel: 'read-append',
    });
    const token = file.graphs[0]!.token as string;
    expect(token).toMatch(/^roam-graph-local-token-/);
    expect(run.stderr).not.toContain(token.slice(23));
    // The user's mode is kept (the file was created 0644 by this test): never widened nor changed.
    expect((await stat(configFile)).mode & 0o777).toBe(0o644);
    const request = emulator.requests.find((r) => r.path === '/api/graphs/tokens/request');
    expect(request?.body).toMatchObject({ graph: 'team', accessLevel: 'full', ai: true });
    expect(request?.body).not.toHaveProperty('deviceName');
  });

  it('a rejected request explains how to retry, and the retry works', async () => {
    emulator.decide('moody', { kind: 'reject' });
    const rejected = await connect(['--graph', 'moody']);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toMatch(/declined/);
    expect(rejected.stderr).toMatch(/To try again: roam-mcp connect --graph moody/);
    emulator.decide('moody', { kind: 'approve' });
    expect((await connect(['--graph', 'moody'])).code).toBe(0);
    // No level given: the safer default, the same as the tray's.
    const asked = emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request').at(-1);
    expect(asked?.body).toMatchObject({ graph: 'moody', accessLevel: 'read-append' });
    expect((await config()).graphs.map((g) => g.name)).toEqual(['team', 'moody']);
  });

  it('connecting a configured graph again keeps its level unless one is asked, and says when it changes', async () => {
    const approve = () => emulator.decide('again', { kind: 'approve', accessLevel: 'full' });
    approve();
    expect((await connect(['--graph', 'again', '--access-level', 'full'])).code).toBe(0);
    approve();
    const again = await connect(['--graph', 'again']);
    expect(again.code).toBe(0);
    const asked = emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request').at(-1);
    expect(asked?.body).toMatchObject({ graph: 'again', accessLevel: 'full' });
    expect((await config()).graphs.find((g) => g.name === 'again')?.accessLevel).toBe('full');
    expect(again.stderr).not.toContain('Its access level was');
    approve();
    const lowered = await connect(['--graph', 'again', '--access-level', 'read-only']);
    expect(lowered.stderr).toContain('Its access level was full, now read-only.');
    expect((await connect(['--remove', 'again'])).code).toBe(0);
  });

  it('a graph Roam cannot open lists the graphs it can, in words for a person', async () => {
    const run = await connect(['--graph', 'nosuch']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Not connected: Roam Desktop could not open hosted graph 'nosuch'");
    expect(run.stderr).toContain("Roam Desktop has no hosted graph 'nosuch' you can open. It offers:");
    expect(run.stderr).toMatch(/^ {2}team$/m);
    expect(run.stderr).toMatch(/^ {2}vault \(offline\)$/m);
    // What an agent is told (uids, tags) is no help to the person at the terminal.
    expect(run.stderr).not.toMatch(/uid|<roam|arguments/i);
  });

  it('a new token for a configured offline graph takes its type from the config (no --type)', async () => {
    // As after a revoked token: the entry is there, offline, with a token Roam no longer knows.
    const before = await config();
    await writeFile(
      configFile,
      JSON.stringify({
        ...before,
        graphs: [
          ...before.graphs,
          { name: 'vault', type: 'offline', nickname: 'Vault', accessLevel: 'read-only', token: 'revoked' },
        ],
      }),
    );
    emulator.decide('vault', { kind: 'approve' }, 'offline');
    const run = await connect(['--graph', 'vault']);
    expect(run.stderr).not.toContain('Could not open');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/Connected 'Vault' with read-only access/);
    const asked = emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request').at(-1);
    expect(asked?.body).toMatchObject({ graph: 'vault', graphType: 'offline' });
    const vaults = (await config()).graphs.filter((g) => g.name === 'vault');
    expect(vaults).toHaveLength(1);
    expect(vaults[0]).toMatchObject({ type: 'offline', accessLevel: 'read-only' });
    expect(vaults[0]!.token).not.toBe('revoked');
    expect((await connect(['--remove', 'Vault'])).code).toBe(0);
  });

  it('a wrong --type names the type Roam has the graph as, and that command connects it', async () => {
    const wrong = await connect(['--graph', 'vault']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("Not connected: Roam Desktop could not open hosted graph 'vault'");
    const suggested = /It has 'vault' as offline: roam-mcp connect (.+)$/m.exec(wrong.stderr)?.[1];
    expect(suggested).toBe('--graph vault --type offline');
    expect(wrong.stderr).not.toMatch(/uid|<roam/i);
    emulator.decide('vault', { kind: 'approve' }, 'offline');
    const run = await connect([...suggested!.split(' '), '--access-level', 'read-only']);
    expect(run.code).toBe(0);
    expect((await config()).graphs.find((g) => g.name === 'vault')).toMatchObject({ type: 'offline' });
    expect((await connect(['--remove', 'vault'])).code).toBe(0);
  });

  it('refuses a clashing nickname before asking Roam', async () => {
    emulator.clearRequests();
    const run = await connect(['--graph', 'typed', '--nickname', 'team']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/clashes/);
    expect(emulator.requests).toHaveLength(0);
  });

  it('refuses a read-only config before asking Roam, so no token is issued and lost', async () => {
    emulator.clearRequests();
    const before = await readFile(configFile, 'utf8');
    await chmod(configFile, 0o400);
    try {
      const run = await connect(['--graph', 'typed']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/is read-only \(mode 400\), so it was left as is. Make it writable/);
      expect(emulator.requests).toHaveLength(0);
      expect(await readFile(configFile, 'utf8')).toBe(before);
    } finally {
      await chmod(configFile, 0o644);
    }
  });

  it('lists, disables, enables and removes graphs', async () => {
    const list = await connect(['--list']);
    expect(list.stderr).toMatch(/Team \(team; read-append, token set\)/);
    expect(list.stderr).toMatch(/vault \(offline\)/);
    await connect(['--disable', 'Team']);
    expect((await config()).graphs[0]).toMatchObject({ disabled: true });
    await connect(['--enable', 'team']);
    expect((await config()).graphs[0]).not.toHaveProperty('disabled');
    await connect(['--remove', 'moody']);
    expect((await config()).graphs.map((g) => g.name)).toEqual(['team']);
    const unknown = await connect(['--remove', 'ghost']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No configured graph is called 'ghost'. Configured: Team/);
    const bad = await connect(['--access-level', 'admin']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--access-level must be one of/);
    for (const [argv, reason] of [
      [['--graph'], '--graph needs a value.'],
      [['--graph', '--list'], '--graph needs a value.'],
      [['--frob'], "Unknown option '--frob'."],
      [['--list=yes'], "Unknown option '--list=yes'."],
      [['team'], "Unknown option 'team'."],
    ] as const) {
      const wrong = await connect([...argv]);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain(reason);
      expect(wrong.stderr).toContain('Usage: roam-mcp connect');
    }
  });
});

describe('roam-mcp connect without Roam', () => {
  it('without a port file, says where it comes from and how to run the demo', async () => {
    const bare = await tempHome();
    try {
      const child = spawn(...binCommand(['connect', '--graph', 'team']), {
        env: binEnv(bare),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(code).toBe(1);
      expect(stderr).toMatch(/nothing answers on port 3333/);
      expect(stderr).toContain(`There is no ${path.join(bare, '.roam-local-api.json')}`);
      expect(stderr).toMatch(/Local API enabled/);
      expect(stderr).toMatch(/npm run demo/);
    } finally {
      await removeHome(bare);
    }
  });
});

describe('roam-mcp connect (interactive), when it cannot ask or nothing could be connected', () => {
  it('with its input closed, says how to run it instead of "readline was closed"', async () => {
    const run = await connect([]); // stdin ends at once
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Graphs Roam Desktop offers:/);
    expect(run.stderr).toContain('No answer: the input is closed, so connect cannot ask.');
    expect(run.stderr).toContain('roam-mcp connect --graph NAME');
    expect(run.stderr).not.toMatch(/readline was closed/);
  });

  it('with Roam not running, says so and stops without asking anything', async () => {
    const bare = await tempHome();
    try {
      // Input stays open: a prompt would wait for it (and the watchdog would kill the process).
      const child = spawn(...binCommand(['connect']), { env: binEnv(bare), stdio: 'pipe' });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const watchdog = setTimeout(() => child.kill(), 20_000);
      const code = await new Promise((resolve) => child.on('close', resolve));
      clearTimeout(watchdog);
      expect(code).toBe(1);
      expect(stderr).toMatch(/Could not list Roam's graphs/);
      expect(stderr).toContain(`There is no ${path.join(bare, '.roam-local-api.json')}`);
      expect(stderr).not.toMatch(/quit: /);
    } finally {
      await removeHome(bare);
    }
  });
});

describe('roam-mcp connect (interactive)', () => {
  it("picks a graph from Roam's list by number, asks nickname and level, connects an offline graph", async () => {
    emulator.decide('vault', { kind: 'approve' }, 'offline');
    const run = await connect([], ['4', 'Vault', 'read-only', '', 'q']);
    expect(run.stderr).toMatch(/4\. vault \(offline\)/);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/Connected 'Vault' with read-only access/);
    expect((await config()).graphs.find((g) => g.name === 'vault')).toMatchObject({
      type: 'offline',
      nickname: 'Vault',
      accessLevel: 'read-only',
    });
  });
});

describe('roam-mcp connect conventions', () => {
  it('marks configured graphs; a taken nickname is refused before the level question; "Try again?" asks for a nickname; a description is kept', async () => {
    const tokenRequests = () =>
      emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request').length;
    const before = tokenRequests();
    const run = connect([], ['3', 'Team', 'Typed', 'read-append', 'the typed one', 'y', 'Typed again', 'q']);
    // The first request is declined, the second (after a new nickname) approved.
    await expect.poll(() => emulator.pendingTokenRequests().some((p) => p.graph === 'typed')).toBe(true);
    emulator.decide('typed', { kind: 'reject' });
    await expect.poll(() => tokenRequests()).toBe(before + 2);
    await expect.poll(() => emulator.pendingTokenRequests().some((p) => p.graph === 'typed')).toBe(true);
    emulator.decide('typed', { kind: 'approve' });
    const done = await run;
    expect(done.code).toBe(0);
    expect(done.stderr).toMatch(/1\. team \[connected as 'Team'\]/);
    const clash = done.stderr.indexOf('clashes');
    expect(clash).toBeGreaterThan(0);
    expect(clash).toBeLessThan(done.stderr.indexOf('Access level:'));
    expect(done.stderr).toMatch(/Try again\? \[y\/N\]: Nickname for 'typed' \[Typed\]: /);
    expect((await config()).graphs.find((g) => g.name === 'typed')).toMatchObject({
      nickname: 'Typed again',
      description: 'the typed one',
      accessLevel: 'read-append',
    });
  });

  it("--public connects a public graph (not in Roam's list) read-only and hosted, as the official connect does", async () => {
    const wrong = await connect(['--graph', 'help', '--public', '--access-level', 'full']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/Public graphs are read-only/);
    emulator.decide('help', { kind: 'approve' });
    const run = await connect(['--graph', 'help', '--public', '--nickname', 'Roam help']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/read-only access to public graph 'help'/);
    const asked = emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request').at(-1);
    expect(asked?.body).toMatchObject({ graph: 'help', graphType: 'hosted', accessLevel: 'read-only' });
    const entry = (await config()).graphs.find((g) => g.name === 'help');
    expect(entry).toMatchObject({ type: 'hosted', nickname: 'Roam help', accessLevel: 'read-only' });
    expect(Object.keys(entry!).sort()).toEqual(['accessLevel', 'name', 'nickname', 'token', 'type']);
  });

  it('interactively, a name Roam does not list is connected as a public graph, read-only, without the level question', async () => {
    emulator.decide('manual', { kind: 'approve' });
    const run = await connect([], ['manual', 'Manual', '', 'q']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /'manual' is not one of your graphs in Roam Desktop: connecting it as a public graph/,
    );
    expect(run.stderr).not.toContain('Access level:');
    const asked = emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request').at(-1);
    expect(asked?.body).toMatchObject({ graph: 'manual', graphType: 'hosted', accessLevel: 'read-only' });
    expect((await config()).graphs.find((g) => g.name === 'manual')).toMatchObject({
      nickname: 'Manual',
      accessLevel: 'read-only',
    });
  });
});
