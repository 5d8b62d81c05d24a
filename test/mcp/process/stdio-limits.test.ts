/**
 * The stdio line limit, through the built bin: a base64 file_upload within the documented 10 MB
 * goes through (both SDK client lines send it as one ~13 MB line); 10.1 MB is a tool error; a
 * 40 MB line is answered with a JSON-RPC error and the same process keeps serving with its
 * selection and write ticket intact. Raw lines show the answer also carries the request's id
 * when it leads the line, and that a line with no id gets an answer without one.
 */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.ts';
import { binCommand, binEnv, errorOf, jsonOf, newToken, type McpHandle } from '../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../harness/stdio-world.ts';

const TOKEN = newToken();
const MB = 1024 * 1024;
let world: StdioWorld;
let home: string;
let emulator: Emulator;
let mcp: McpHandle;

const uploads = () => emulator.requests.filter((r) => r.action === 'file.upload');

/** Random bytes that cannot contain a token prefix (which file_upload would refuse). */
function fileOf(bytes: number): Buffer {
  const file = randomBytes(bytes);
  for (let i = 0; i < file.length; i++) file[i] = (file[i] as number) & 0x3f;
  return file;
}

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [{ name: 'main', content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
    },
    config: [{ name: 'main', token: TOKEN }],
    orient: ['main'],
  });
  ({ home, emulator, mcp } = world);
});

afterAll(() => world?.close());

describe('one JSON-RPC line per message, up to the documented upload size', () => {
  it('a 9.9 MB base64 upload goes through whole', { timeout: 120_000 }, async () => {
    const file = fileOf(Math.floor(9.9 * MB));
    const base64 = file.toString('base64');
    const { url } = jsonOf<{ url: string }>(
      await mcp.call('file_upload', { graph: 'main', base64, filename: 'big.bin' }),
    );
    expect(url).toBeTruthy();
    const sent = uploads().at(-1)!.body as { args: Array<{ base64: string }> };
    expect(sent.args[0]!.base64).toBe(base64);
  });

  it('a 10.1 MB base64 upload is refused by the tool, naming the limit', { timeout: 120_000 }, async () => {
    const before = uploads().length;
    const base64 = fileOf(Math.floor(10.1 * MB)).toString('base64');
    const error = errorOf(await mcp.call('file_upload', { graph: 'main', base64 }));
    expect([error.code, error.message]).toEqual(['INVALID_PARAMS', expect.stringMatching(/up to 10 MB/)]);
    expect(uploads().length).toBe(before);
  });

  it(
    'a 40 MB line gets a JSON-RPC error; the same process keeps its selection and ticket',
    { timeout: 120_000 },
    async () => {
      const pid = mcp.pid();
      const base64 = 'A'.repeat(40 * MB);
      const answer = await mcp.call('file_upload', { graph: 'main', base64 }).then(
        () => undefined,
        (error: Error & { code?: number }) => error,
      );
      expect(answer?.code).toBe(-32600);
      expect(answer?.message).toMatch(/roam-mcp reads messages up to 16\.0 MB/);
      // Same process; the selection holds (no `graph`), and so does the write ticket.
      expect(mcp.pid()).toBe(pid);
      expect(jsonOf<{ graph: string }>(await mcp.call('current_graph'))).toMatchObject({ nickname: 'main' });
      const created = await mcp.call('create_page', { title: 'After the big line' });
      expect(created.isError).toBeFalsy();
    },
  );
});

/** The bin with hand-written lines: every stdout line parsed. */
class RawBin {
  readonly messages: Array<Record<string, unknown>> = [];
  private buffer = '';
  private waiters: Array<() => void> = [];
  exited: number | null = null;
  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      for (let at = this.buffer.indexOf('\n'); at >= 0; at = this.buffer.indexOf('\n')) {
        this.messages.push(JSON.parse(this.buffer.slice(0, at)) as Record<string, unknown>);
        this.buffer = this.buffer.slice(at + 1);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    child.on('exit', (code) => {
      this.exited = code ?? -1;
      for (const wake of this.waiters.splice(0)) wake();
    });
  }
  /** Writes `line` and a newline in pieces, as a pipe delivers a long line. */
  async write(line: string): Promise<void> {
    for (let at = 0; at < line.length; at += 4 * MB)
      if (!this.child.stdin.write(line.slice(at, at + 4 * MB)))
        await new Promise((resolve) => this.child.stdin.once('drain', resolve));
    this.child.stdin.write('\n');
  }
  async next(match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (this.exited !== null) throw new Error(`the bin exited (${this.exited})`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

describe('raw oversized lines', () => {
  let raw: RawBin;
  beforeAll(async () => {
    raw = new RawBin(spawn(...binCommand(), { env: binEnv(home), cwd: home }));
    await raw.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    );
    await raw.next((m) => m.id === 1);
    await raw.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  });
  afterAll(() => raw?.child.kill('SIGKILL'));

  it(
    'the id leading the line is answered; a line with no id gets an error without one',
    { timeout: 120_000 },
    async () => {
      const params = { name: 'file_upload', arguments: { base64: 'B'.repeat(40 * MB) } };
      await raw.write(
        `{"jsonrpc":"2.0","id":"big-one","method":"tools/call","params":${JSON.stringify(params)}}`,
      );
      const answered = await raw.next((m) => m.id === 'big-one');
      expect((answered.error as { code: number }).code).toBe(-32600);

      await raw.write('x'.repeat(40 * MB));
      const anonymous = await raw.next((m) => 'error' in m && !('id' in m));
      expect((anonymous.error as { message: string }).message).toMatch(/40\.0 MB/);

      await raw.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }));
      expect(await raw.next((m) => m.id === 2)).toMatchObject({ result: {} });
      expect(raw.exited).toBeNull();
    },
  );
});
