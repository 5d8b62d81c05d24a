/**
 * The tray's HTTP server (docs/clients.md, "Over HTTP"): the same `roam-mcp serve --http` every
 * HTTP client connects to, run by the tray as a child it supervises like an `--mcp` child
 * (src-main/core/mcp-launcher.ts): graphs, tokens and toolsets from the tray store over IPC, live;
 * nothing secret in its argv or environment. "Roam Companion is running" then means every HTTP
 * client is served. Its address is in `<data folder>/http-server.json`.
 */
import { DATA_DIR_ENV } from '../../src-shared/node/data-dir.ts';
import { readUrlFile } from '../../src-mcp/installers/index.ts';
import { runMcpLauncher, type McpLauncher, type McpSpawner } from './mcp-launcher.ts';
import type { SecretBox } from './secret-box.ts';
import type { StoreBackend } from './tray-store.ts';

export interface HttpHubChildOptions {
  storeDir: string;
  secretBox: SecretBox;
  mcpServerPath: string;
  spawn: McpSpawner;
  store?: StoreBackend;
  /** 0: any free port (tests); the app uses the fixed default so client configs stay valid. */
  port: number;
  /** The data folder the server and the tray share (keys, journal, URL file); default the machine's. */
  dataDir?: string;
  /** The user's home: where the server finds Roam's port file. */
  home: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export interface HttpHubChild {
  launcher: McpLauncher;
  /** The server's URL once it listens (read from the URL file it writes). */
  url(): Promise<string | undefined>;
  stop(): Promise<number>;
}

export async function startHttpHubChild(options: HttpHubChildOptions): Promise<HttpHubChild> {
  const env: NodeJS.ProcessEnv = {
    ...(options.env ?? process.env),
    HOME: options.home,
    USERPROFILE: options.home,
  };
  if (options.dataDir) env[DATA_DIR_ENV] = options.dataDir;
  const launcher = await runMcpLauncher({
    storeDir: options.storeDir,
    secretBox: options.secretBox,
    mcpServerPath: options.mcpServerPath,
    spawn: options.spawn,
    ...(options.store ? { store: options.store } : {}),
    env,
    args: ['serve', '--http', '--port', String(options.port)],
    countAsSession: false,
    log: options.log ?? ((line) => process.stderr.write(`roam-companion http: ${line}\n`)),
  });
  const where = options.dataDir ? { env: { [DATA_DIR_ENV]: options.dataDir } } : { env };
  let stopped: Promise<number> | undefined;
  return {
    launcher,
    async url() {
      const served = await readUrlFile(where);
      return served && served.pid === launcher.child.pid ? served.url : undefined;
    },
    stop: () => (stopped ??= launcher.stop()),
  };
}
