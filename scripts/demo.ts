/**
 * `npm run demo`: a throw-away Roam stand-in to try roam-mcp against, no Roam Desktop needed.
 * Creates a temp HOME, starts the emulator with a hosted and an offline demo graph (token requests
 * are approved after 2 s), writes `{home}/.roam-tools.json` and prints how to point a client at it.
 * It also serves the tray UI in the browser (the browser preview: the real tray core against the
 * emulator) with sandboxed AI clients (their config folders inside the temp HOME), and, on a
 * terminal, takes one-letter commands that change how "Roam" answers token requests. Clients run
 * `dist/demo-mcp.mjs --home <temp HOME>`, the demo's `--mcp` launcher: the agent sees what the
 * tray shows. Every exit path (Ctrl-C, SIGTERM, SIGHUP, a closed stdout pipe, an uncaught error)
 * stops everything and removes the temp HOME.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { previewDataDir } from '../src-main/preview/preview-data-dir.ts';
import { startPreview, type Preview } from '../src-main/preview/server.ts';
import { listClients, type Launcher } from '../src-mcp/installers/index.ts';
import { writeFileAtomic } from '../src-shared/node/atomic-write.ts';
import type { HttpServerStatus } from '../src-shared/ipc-contract.ts';
import type { ConfigFile } from '../src-shared/roam-config.ts';
import { demoPersonalGraphContent } from '../test/emulator/demo-graph.ts';
import { startEmulator } from '../test/emulator/index.ts';
import type { Emulator, TokenDecision } from '../test/emulator/types.ts';
import { startApprovalsDesk, type ApprovalsDesk } from './demo-approvals.ts';

/** How long the emulated "user" takes to approve a token request. */
const APPROVE_AFTER_MS = 2000;

export interface Demo {
  home: string;
  emulator: Emulator;
  config: ConfigFile;
  /** Absolute path of the built MCP server (dist/roam-mcp.mjs). */
  mcpServerPath: string;
  /** What AI clients launch: the demo's `--mcp` launcher on the demo's tray store. */
  launcher: Launcher;
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

/** Client configs are located from the demo HOME only (no XDG_CONFIG_HOME/APPDATA of the user's). */
const SANDBOX_ENV: Record<string, string | undefined> = {};

/** `node dist/demo-mcp.mjs --home <home>`: the plain-Node stand-in for `Roam Companion --mcp`. */
export function demoLauncher(home: string): Launcher {
  return { command: process.execPath, args: [path.join(distDir(), 'demo-mcp.mjs'), '--home', home] };
}

/** Creates every client's config folder but Claude Code's in the demo HOME: they show as available. */
async function sandboxClients(home: string, launcher: Launcher): Promise<void> {
  const clients = await listClients({ home, launcher, env: SANDBOX_ENV });
  for (const client of clients) {
    if (client.id === 'claude-code' || !client.configPath) continue;
    await mkdir(path.dirname(client.configPath), { recursive: true, mode: 0o700 });
  }
}

/** Starts the emulated Roam with the demo graphs and writes the graph config into a temp HOME. */
export async function startDemo(): Promise<Demo> {
  const home = await mkdtemp(path.join(tmpdir(), 'roam-companion-demo-'));
  try {
    return await startDemoIn(home);
  } catch (error) {
    await rm(home, { recursive: true, force: true }); // nothing half-made (tokens) stays behind
    throw error;
  }
}

async function startDemoIn(home: string): Promise<Demo> {
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
        // The level its token grants: a wider one would be a doctor warning out of the box.
        accessLevel: 'read-append',
        token: emulator.addToken('demo-personal', 'offline', 'read-append'),
      },
    ],
  };
  await writeFileAtomic(path.join(home, '.roam-tools.json'), `${JSON.stringify(config, null, 2)}\n`);
  const launcher = demoLauncher(home);
  await sandboxClients(home, launcher);
  return {
    home,
    emulator,
    config,
    mcpServerPath: builtMcpServerPath(),
    launcher,
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
    launcher: demo.launcher,
    env: SANDBOX_ENV,
    // The session count follows a client within a second: the walk through the demo shows it.
    statusPollMs: 1000,
    // The HTTP server every HTTP client connects to, as the tray runs it (any free port here).
    httpHub: { port: 0 },
  });
}

function instructions(demo: Demo, preview: Preview): string {
  const entry = { command: demo.launcher.command, args: demo.launcher.args };
  const controls = Object.entries(answers).map(([key, { says }]) => `    ${key} = ${says}`);
  return [
    'Roam Companion demo is ready.',
    `  Tray UI (browser preview): ${preview.pageUrl}`,
    `  Emulated Roam Local API: ${demo.emulator.url} (graphs: demo-work [hosted], demo-personal [offline])`,
    `  Temporary HOME:          ${demo.home} (holds .roam-tools.json, .roam-local-api.json, the tray store`,
    '                           and sandboxed config folders of every client but Claude Code)',
    '',
    'AI clients launch the demo\'s stand-in for "Roam Companion --mcp": it serves the graphs the tray',
    'UI shows (add, edit, switch off: a running agent sees it at once) and counts as a session in the',
    'status bar. Install it into the sandboxed clients from the "AI clients" tab, or add this under',
    '"mcpServers" in your own claude_desktop_config.json:',
    JSON.stringify({ 'roam-companion-demo': entry }, null, 2),
    `This entry points into the temporary HOME (${demo.home}), which is deleted when the demo`,
    'stops: remove it from your config afterwards.',
    '',
    'Or run it directly (MCP over stdio):',
    `  ${[entry.command, ...entry.args].join(' ')}`,
    '',
    'In the tray UI, import the demo graphs or add demo-work / demo-personal and request a token.',
    'Every change an agent makes through this entry appears live in the Activity tab (set Work to',
    '"Full" in Graphs to let it edit and delete), where you can undo a change or a whole chat.',
    'Before it takes much away (a page with content, more than 10 blocks), a client that cannot ask',
    'in its chat waits for your answer here, in this terminal, as the app asks in a box: type y N to',
    'approve change N, k N to keep things as they are.',
    'To try `roam-mcp install` on the sandboxed clients, give it the demo HOME and its data folder, so',
    "the entry connects to the tray's HTTP server and its changes reach Activity:",
    `  ROAM_COMPANION_DATA_DIR=${previewDataDir(demo.home)} HOME=${demo.home} node ${path.join(distDir(), 'roam-mcp.mjs')} install cursor`,
    "From a terminal, the demo's journal (in its temporary HOME, not this machine's):",
    `  ROAM_COMPANION_DATA_DIR=${previewDataDir(demo.home)} HOME=${demo.home} node ${path.join(distDir(), 'roam-mcp.mjs')} changes`,
    'To change how "Roam" answers the next requests, type a letter and Enter here:',
    ...controls,
    '    u = unblock both demo graphs (what you would do in Roam settings after a Never Allow)',
    '    s = stop Roam Desktop, to see what the tray shows then (s again starts it)',
    '',
    `Token requests are approved automatically after ${APPROVE_AFTER_MS / 1000} s. Ctrl-C stops the demo and deletes the temporary HOME.`,
    '',
  ].join('\n');
}

/** `s`: Roam Desktop quits, or starts again — so the tray's "not running" states can be seen. */
async function toggleRoam(emulator: Emulator): Promise<string> {
  try {
    // Refused while it runs (the tray's "Open Roam Desktop" may have started it meanwhile).
    await emulator.start(emulator.port);
    return `Roam Desktop started again on ${emulator.url}.\n`;
  } catch (error) {
    if (!/already running/.test((error as Error).message)) throw error;
    await emulator.stop();
    return 'Roam Desktop stopped (the emulated one): the tray shows it as not running. Type s to start it again.\n';
  }
}

/** Reads one-letter commands and answers to waiting changes from the terminal (or whatever feeds stdin). */
function listenForCommands(emulator: Emulator, desk: ApprovalsDesk): void {
  // terminal: false keeps Ctrl-C a real SIGINT for the handler in main().
  const lines = createInterface({ input: process.stdin, terminal: false });
  lines.on('line', (line) => {
    const key = line.trim().toLowerCase();
    if (!key || desk.typed(key)) return;
    if (key === 's') {
      void toggleRoam(emulator).then(
        (text) => say(process.stdout, text),
        (error: unknown) =>
          say(process.stderr, `Could not switch Roam Desktop: ${(error as Error).message}\n`),
      );
      return;
    }
    if (key === 'u') {
      emulator.unblock('demo-work', 'hosted');
      emulator.unblock('demo-personal', 'offline');
      say(process.stdout, 'Unblocked demo-work and demo-personal: press "Retry" in Blocked.\n');
      return;
    }
    const answer = answers[key];
    if (!answer) {
      say(
        process.stdout,
        `Unknown command '${key}'. Type one of ${Object.keys(answers).join(', ')}, u, s (or y N / k N to answer a waiting change).\n`,
      );
      return;
    }
    emulator.autoDecide(answer.decision, APPROVE_AFTER_MS);
    say(
      process.stdout,
      `Roam will now ${answer.says}${answer.decision ? ` after ${APPROVE_AFTER_MS / 1000} s` : ''}.\n`,
    );
  });
}

/** Writes to the terminal; a closed pipe (`| tee` gone) is not an error worth dying for here. */
function say(stream: NodeJS.WriteStream, text: string): void {
  try {
    if (!stream.destroyed && stream.writable) stream.write(text);
  } catch {
    // EPIPE: nobody reads any more; cleanup goes on.
  }
}

/**
 * Writes to the terminal itself (`/dev/tty`), when there is one: after Ctrl-C on `demo | tee log`,
 * tee is gone with the same signal, so what the demo says on its way out would reach nobody.
 */
function sayOnTerminal(text: string): void {
  try {
    writeFileSync('/dev/tty', text);
  } catch {
    // No controlling terminal (a supervisor, a test): stderr was all there was.
  }
}

/**
 * Removes the temp HOME (it holds tokens) on every way out: signals from the terminal or a
 * supervisor, stdout/stderr closing under us (`npm run demo | tee log`, then Ctrl-C: tee may die
 * first and the next write fails with EPIPE), an uncaught error, and process.exit itself. It says
 * what it removed, on the terminal too when its output went into a pipe that Ctrl-C closed.
 */
function cleanUpOnEveryExit(home: string, stop: () => Promise<void>): void {
  let closing = false;
  const shutdown = (reason: string, code: number, viaTerminal: boolean) => {
    if (closing) return;
    closing = true;
    const tell = (text: string) => {
      say(process.stderr, text);
      if (viaTerminal && !process.stderr.isTTY) sayOnTerminal(text);
    };
    tell(`\n${reason}: stopping the demo and removing ${home}\n`);
    stop().then(
      () => {
        tell(`Removed ${home} (the demo's tokens, tray store and sandboxed client configs).\n`);
        process.exit(code);
      },
      (error: unknown) => {
        tell(`demo: cleanup failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT', 0, true));
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal, 0, false));
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) =>
      shutdown(`output closed (${error.code ?? error.message})`, 0, true),
    );
  }
  process.on('uncaughtException', (error) => shutdown(`demo failed: ${error.message}`, 1, false));
  process.on('unhandledRejection', (error) => shutdown(`demo failed: ${(error as Error).message}`, 1, false));
  // Last resort, synchronous: whatever ends the process, the tokens do not stay behind.
  process.on('exit', () => rmSync(home, { recursive: true, force: true }));
}

async function main(): Promise<void> {
  const demo = await startDemo();
  const running: { preview?: Preview; desk?: ApprovalsDesk } = {};
  cleanUpOnEveryExit(demo.home, async () => {
    await running.desk?.close();
    await running.preview?.close();
    await demo.close();
  });
  running.preview = await startDemoPreview(demo);
  // The stand-ins' proposals show in the demo's terminal and in the tray UI's approvals panel.
  running.desk = await startApprovalsDesk(
    demo.home,
    (text) => say(process.stdout, text),
    running.preview.core.addProposalServer,
  );
  say(process.stdout, instructions(demo, running.preview));
  sayWhereHttpServes(running.preview.core);
  listenForCommands(demo.emulator, running.desk);
}

/** Once the tray's HTTP server listens (it starts beside the UI), where HTTP clients reach it. */
function sayWhereHttpServes(core: Preview['core']): void {
  let said = false;
  const sayOnce = (http: HttpServerStatus | undefined) => {
    if (said || http?.state !== 'serving') return;
    said = true;
    stop();
    say(
      process.stdout,
      `One server for every chat: MCP over HTTP at ${http.url} ("AI clients" gives each client a key of its own).\n`,
    );
  };
  const stop = core.on('status:changed', (status) => sayOnce(status.http));
  void core.handlers['status:get'](undefined).then((status) => sayOnce(status.http));
}

// Runs only as a program (node dist/demo.mjs), not when a test or a later demo imports startDemo.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    say(process.stderr, `demo: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
