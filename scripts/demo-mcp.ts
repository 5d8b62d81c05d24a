/**
 * `node dist/demo-mcp.mjs --home <demo HOME>`: the demo's stand-in for `Roam Companion --mcp`.
 * AI clients configured by the demo launch this; it opens the demo's tray store (the file-key
 * secret box in `<home>/.roam-companion`) and runs the same launcher as the app, so the agent
 * gets exactly the graphs the tray UI shows, edits reach it live and the session is counted.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createFileKeySecretBox } from '../src-main/core/store/file-key-secret-box.ts';
import { forkSpawner, runMcpLauncher } from '../src-main/core/clients/mcp-launcher.ts';
import { previewDataDir } from '../src-main/preview/preview-data-dir.ts';
import { DATA_DIR_ENV } from '../src-shared/node/data-dir.ts';

const log = (line: string) => process.stderr.write(`roam-companion demo --mcp: ${line}\n`);

/** The demo's store dir inside its temp HOME (where the preview keeps it too). */
const demoStoreDir = (home: string) => path.join(home, '.roam-companion');

async function main(): Promise<void> {
  // `--client` and `--tools`: the toolset choice the AI clients screen writes (docs/mcp.md, Toolsets).
  const { values } = parseArgs({
    options: { home: { type: 'string' }, client: { type: 'string' }, tools: { type: 'string' } },
  });
  if (!values.home || !path.isAbsolute(values.home)) {
    log('missing --home <absolute path of the demo HOME>: copy the entry the demo printed.');
    process.exit(2);
  }
  const storeDir = demoStoreDir(values.home);
  const here = path.dirname(fileURLToPath(import.meta.url));
  // Set once the launcher runs: the demo stopping (its HOME deleted) ends this session too.
  let stop = () => {};
  const launcher = await runMcpLauncher({
    storeDir,
    secretBox: createFileKeySecretBox(storeDir),
    mcpServerPath: path.join(here, 'roam-mcp.mjs'),
    spawn: forkSpawner(),
    // The child finds the emulator's port file in the demo HOME, not the client's, and journals
    // its changes where the demo's Activity view reads them.
    env: {
      ...process.env,
      HOME: values.home,
      USERPROFILE: values.home,
      [DATA_DIR_ENV]: previewDataDir(values.home),
    },
    log,
    ...(values.tools !== undefined ? { tools: values.tools } : {}),
    ...(values.client !== undefined ? { client: values.client } : {}),
    onStoreGone: () => {
      log('the demo stopped (its temporary HOME is gone): ending this session.');
      stop();
    },
  });
  stop = () => void launcher.stop();
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => void launcher.stop());
  }
  process.exit(await launcher.exited);
}

main().catch((error: unknown) => {
  log((error as Error).message);
  process.exit(1);
});
