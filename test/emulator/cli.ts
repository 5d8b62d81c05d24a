/**
 * `node dist/emulator.mjs [--home DIR] [--port N] [--graph name[:offline][:demo|:personal|:empty|:generate=N]]...
 *  [--approve-after MS] [--semantic]`: runs the emulator until Ctrl-C. Tokens are test data here,
 * so one full-access token per graph is printed (stderr for people, one JSON line on stdout for scripts).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { demoPersonalGraphContent } from './demo-graph.ts';
import { startEmulator } from './index.ts';
import type { GraphSpec } from './types.ts';

const USAGE = `Usage: node dist/emulator.mjs [--home DIR] [--port N] [--graph SPEC]... [--approve-after MS] [--semantic]
  SPEC = name[:offline][:demo|:personal|:empty|:generate=N]   (default: demo-work:demo)
  --home           where .roam-local-api.json is written (default: a new temp dir, never your real HOME)
  --approve-after  approve every token request after MS milliseconds (default: wait forever)
  --semantic       offer data.ai.semanticSearch`;

/** Parses one `--graph` value; throws with the usage on anything unknown. */
export function parseGraphSpec(value: string): GraphSpec {
  const [name, ...flags] = value.split(':');
  if (!name) throw new Error(`--graph "${value}": the graph name is missing.\n${USAGE}`);
  const spec: GraphSpec = { name, content: 'empty' };
  for (const flag of flags) {
    const generate = /^generate=(\d+)$/.exec(flag);
    if (flag === 'offline' || flag === 'hosted') spec.type = flag;
    else if (flag === 'demo' || flag === 'empty') spec.content = flag;
    else if (flag === 'personal') spec.content = demoPersonalGraphContent();
    else if (generate) spec.content = { generate: { blocks: Number(generate[1]) } };
    else throw new Error(`--graph "${value}": unknown option "${flag}".\n${USAGE}`);
  }
  return spec;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      home: { type: 'string' },
      port: { type: 'string' },
      graph: { type: 'string', multiple: true },
      'approve-after': { type: 'string' },
      semantic: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0..65535.\n${USAGE}`);
  const home = values.home ?? (await mkdtemp(path.join(tmpdir(), 'roam-emulator-')));
  const graphs = (values.graph ?? ['demo-work:demo']).map(parseGraphSpec);
  const emulator = await startEmulator({ home, port, graphs, semanticSearch: values.semantic ?? false });
  if (values['approve-after'] !== undefined)
    emulator.autoDecide({ kind: 'approve' }, Number(values['approve-after']));

  const tokens = graphs.map((g) => ({
    name: g.name,
    type: g.type ?? 'hosted',
    token: emulator.addToken(g.name, g.type ?? 'hosted', 'full'),
  }));
  process.stderr.write(`Roam Local API emulator on ${emulator.url} (port file in ${home})\n`);
  for (const t of tokens) process.stderr.write(`  ${t.type} graph '${t.name}': ${t.token}\n`);
  process.stderr.write('Ctrl-C stops it.\n');
  process.stdout.write(`${JSON.stringify({ port: emulator.port, home, graphs: tokens })}\n`);

  const shutdown = () => {
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`emulator: ${(error as Error).message}\n`);
  process.exit(2);
});
