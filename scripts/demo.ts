/**
 * `npm run demo`: a throw-away Roam stand-in to try roam-mcp against, no Roam Desktop needed.
 * Creates a temp HOME, starts the emulator with a hosted and an offline demo graph (token requests
 * are approved after 2 s), writes `{home}/.roam-tools.json` and prints how to point a client at it.
 * It also serves the tray UI in the browser (the browser preview: the real tray core against the
 * emulator) and, on a terminal, takes one-letter commands that change how "Roam" answers token
 * requests. Ctrl-C / SIGTERM stops everything and removes the temp HOME.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startPreview, type Preview } from '../src-main/preview/server.ts';
import { writeFileAtomic } from '../src-shared/node/atomic-write.ts';
import type { ConfigFile } from '../src-shared/roam-config.ts';
import { demoPersonalGraphContent } from '../test/emulator/demo-graph.ts';
import { startEmulator } from '../test/emulator/index.ts';
import type { Emulator, TokenDecision } from '../test/emulator/types.ts';

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

/** dist/, whether this runs bundled from dist/ or from scripts/ via tsx. */
function distDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === 'dist' ? here : path.join(here, '..', 'dist');
}

/** dist/roam-mcp.mjs, whether this runs bundled from dist/ or from scripts/ via tsx. */
function builtMcpServerPath(): string {
  return path.join(distDir(), 'roam-mcp.mjs');
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

/** One-letter commands typed in the demo's terminal: how the emulated user answers token requests. */
const answers: Record<string, { decision: TokenDecision | null; says: string }> = {
  a: { decision: { kind: 'approve' }, says: 'approve' },
  d: {
    decision: { kind: 'approve', accessLevel: 'read-only' },
    says: 'approve, but only read-only (a downgrade)',
  },
  r: { decision: { kind: 'reject' }, says: 'reject' },
  n: { decision: { kind: 'never-allow' }, says: 'Never Allow (the graph lands in Blocked)' },
  w: { decision: null, says: 'wait for you (no answer: Roam times out after 5 minutes)' },
};

/** The tray UI in the browser: the real tray core against the emulator, store kept in the temp HOME. */
export function startDemoPreview(demo: Demo): Promise<Preview> {
  return startPreview({
    home: demo.home,
    emulator: demo.emulator,
    storeDir: path.join(demo.home, '.roam-companion'),
    rendererDir: path.join(distDir(), 'renderer'),
    mcpServerPath: demo.mcpServerPath,
  });
}

function instructions(demo: Demo, preview: Preview): string {
  const entry = { command: 'node', args: [demo.mcpServerPath], env: { HOME: demo.home } };
  const controls = Object.entries(answers).map(([key, { says }]) => `    ${key} = ${says}`);
  return [
    'Roam Companion demo is ready.',
    `  Tray UI (browser preview): ${preview.url}`,
    `  Emulated Roam Local API: ${demo.emulator.url} (graphs: demo-work [hosted], demo-personal [offline])`,
    `  Temporary HOME:          ${demo.home} (holds .roam-tools.json and .roam-local-api.json)`,
    '',
    'Claude Desktop: add this under "mcpServers" in claude_desktop_config.json:',
    JSON.stringify({ 'roam-demo': entry }, null, 2),
    '',
    'Or run the server directly:',
    `  HOME=${demo.home} node ${demo.mcpServerPath}`,
    '',
    'In the tray UI, add demo-work or demo-personal and request a token. To change how "Roam" answers',
    'the next requests, type a letter and Enter here:',
    ...controls,
    '    u = unblock both demo graphs (what you would do in Roam settings after a Never Allow)',
    '',
    `Token requests are approved automatically after ${APPROVE_AFTER_MS / 1000} s. Ctrl-C stops the demo and deletes the temporary HOME.`,
    '',
  ].join('\n');
}

/** Reads one-letter commands from a terminal; nothing when stdin is not one (e.g. under a test). */
function listenForCommands(emulator: Emulator): void {
  if (!process.stdin.isTTY) return;
  // terminal: false keeps Ctrl-C a real SIGINT for the handler in main().
  const lines = createInterface({ input: process.stdin, terminal: false });
  lines.on('line', (line) => {
    const key = line.trim().toLowerCase();
    if (key === 'u') {
      emulator.unblock('demo-work', 'hosted');
      emulator.unblock('demo-personal', 'offline');
      process.stdout.write('Unblocked demo-work and demo-personal: use "try again" in Blocked.\n');
      return;
    }
    const answer = answers[key];
    if (!answer) {
      process.stdout.write(`Unknown command '${key}'. Type one of ${Object.keys(answers).join(', ')}, u.\n`);
      return;
    }
    emulator.autoDecide(answer.decision, APPROVE_AFTER_MS);
    process.stdout.write(
      `Roam will now ${answer.says}${answer.decision ? ` after ${APPROVE_AFTER_MS / 1000} s` : ''}.\n`,
    );
  });
}

async function main(): Promise<void> {
  const demo = await startDemo();
  let preview: Preview;
  try {
    preview = await startDemoPreview(demo);
  } catch (error) {
    await demo.close();
    throw error;
  }
  process.stdout.write(instructions(demo, preview));
  listenForCommands(demo.emulator);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stderr.write(`\n${signal}: stopping the demo and removing ${demo.home}\n`);
    preview
      .close()
      .then(() => demo.close())
      .then(
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
