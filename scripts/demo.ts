/**
 * `npm run demo`: a throw-away Roam stand-in to try roam-mcp against, no Roam Desktop needed.
 * Creates a temp HOME, starts the emulator with a hosted and an offline demo graph (token requests
 * are approved after 2 s), writes `{home}/.roam-tools.json` and prints how to point a client at it.
 * Ctrl-C / SIGTERM stops the server and removes the temp HOME.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../src-shared/node/atomic-write.ts';
import type { ConfigFile } from '../src-shared/roam-config.ts';
import { demoPersonalGraphContent } from '../test/emulator/demo-graph.ts';
import { startEmulator } from '../test/emulator/index.ts';
import type { Emulator } from '../test/emulator/types.ts';

/** How long the emulated "user" takes to approve a token request. */
const APPROVE_AFTER_MS = 2000;

export interface Demo {
  home: string;
  emulator: Emulator;
  config: ConfigFile;
  /** Absolute path of the built MCP server (dist/roam-mcp.mjs). */
  mcpServerPath: string;
  close(): Promise<void>;
}

/** dist/roam-mcp.mjs, whether this runs bundled from dist/ or from scripts/ via tsx. */
function builtMcpServerPath(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.join(path.basename(here) === 'dist' ? here : path.join(here, '..', 'dist'), 'roam-mcp.mjs');
}

/** Starts the emulated Roam with the demo graphs and writes the graph config into a temp HOME. */
export async function startDemo(): Promise<Demo> {
  const home = await mkdtemp(path.join(tmpdir(), 'roam-companion-demo-'));
  const emulator = await startEmulator({
    home,
    graphs: [
      { name: 'demo-work', type: 'hosted', content: 'demo' },
      { name: 'demo-personal', type: 'offline', content: demoPersonalGraphContent() },
    ],
    semanticSearch: true,
  });
  emulator.autoDecide({ kind: 'approve' }, APPROVE_AFTER_MS);
  const config: ConfigFile = {
    graphs: [
      {
        name: 'demo-work',
        type: 'hosted',
        nickname: 'Work',
        description: 'Demo work graph: projects, people, daily notes',
        token: emulator.addToken('demo-work', 'hosted', 'full'),
      },
      {
        name: 'demo-personal',
        type: 'offline',
        nickname: 'Personal',
        description: 'Demo personal graph (offline): reading notes',
        token: emulator.addToken('demo-personal', 'offline', 'read-append'),
      },
    ],
  };
  await writeFileAtomic(path.join(home, '.roam-tools.json'), `${JSON.stringify(config, null, 2)}\n`);
  return {
    home,
    emulator,
    config,
    mcpServerPath: builtMcpServerPath(),
    async close() {
      await emulator.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

function instructions(demo: Demo): string {
  const entry = { command: 'node', args: [demo.mcpServerPath], env: { HOME: demo.home } };
  return [
    'Roam Companion demo is ready.',
    `  Emulated Roam Local API: ${demo.emulator.url} (graphs: demo-work [hosted], demo-personal [offline])`,
    `  Temporary HOME:          ${demo.home} (holds .roam-tools.json and .roam-local-api.json)`,
    '',
    'Claude Desktop: add this under "mcpServers" in claude_desktop_config.json:',
    JSON.stringify({ 'roam-demo': entry }, null, 2),
    '',
    'Or run the server directly:',
    `  HOME=${demo.home} node ${demo.mcpServerPath}`,
    '',
    `Token requests are approved automatically after ${APPROVE_AFTER_MS / 1000} s. Ctrl-C stops the demo and deletes the temporary HOME.`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const demo = await startDemo();
  process.stdout.write(instructions(demo));
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stderr.write(`\n${signal}: stopping the demo and removing ${demo.home}\n`);
    demo.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`demo: cleanup failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

// Runs only as a program (node dist/demo.mjs), not when a test or a later demo imports startDemo.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`demo: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
