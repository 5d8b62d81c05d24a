// Bundles every runtime piece with esbuild (not tsc emit) so the MCP child starts fast.
// `node scripts/build.mjs [target...]` builds the named targets, or all of them.
import { build } from 'esbuild';
import { copyFile, mkdir, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = (p) => path.join(root, 'dist', p);
// Bundled ESM that still contains CommonJS dependencies needs a real `require`.
const esmRequireShim =
  "import { createRequire as __roamCreateRequire } from 'node:module'; const require = __roamCreateRequire(import.meta.url);";

/**
 * Writes esbuild's output through a temp file and a rename, so a process starting the bin while it
 * is rebuilt (`npm pack` runs `prepack` while tests run it) reads the old or the new file, never half.
 */
async function writeAtomically(result) {
  for (const file of result.outputFiles) {
    const temp = `${file.path}.${process.pid}.tmp`;
    await writeFile(temp, file.contents, { mode: file.path.endsWith('.mjs') ? 0o755 : 0o644 });
    await rename(temp, file.path);
  }
}

const node = { bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'warning' };

export const targets = {
  mcp: () =>
    build({
      ...node,
      entryPoints: [path.join(root, 'src-mcp/cli.ts')],
      outfile: out('roam-mcp.mjs'),
      format: 'esm',
      minify: true,
      // The SDK's Node shim without AJV (src-mcp/sdk-node-shims.ts says why).
      alias: { '@modelcontextprotocol/server/_shims': path.join(root, 'src-mcp/sdk-node-shims.ts') },
      banner: { js: `#!/usr/bin/env node\n${esmRequireShim}` },
      write: false,
    }).then((result) => writeAtomically(result)),
  main: () =>
    build({
      ...node,
      entryPoints: [path.join(root, 'src-main/shell/main.ts')],
      outfile: out('main/main.mjs'),
      format: 'esm',
      external: ['electron'],
      banner: { js: esmRequireShim },
    }),
  preload: () =>
    build({
      ...node,
      entryPoints: [path.join(root, 'src-main/shell/preload.ts')],
      outfile: out('main/preload.cjs'),
      format: 'cjs',
      external: ['electron'],
    }),
  renderer: async () => {
    await build({
      bundle: true,
      entryPoints: [path.join(root, 'src-renderer/main.tsx')],
      outfile: out('renderer/app.js'),
      format: 'esm',
      platform: 'browser',
      target: 'chrome120',
      minify: true,
      sourcemap: 'linked',
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'warning',
    });
    await copyFile(path.join(root, 'src-renderer/index.html'), out('renderer/index.html'));
    // The page's icon (index.html links it), so browsers stop asking for a missing /favicon.ico.
    await copyFile(path.join(root, 'assets/icon.png'), out('renderer/icon.png'));
  },
  demo: () =>
    build({
      ...node,
      entryPoints: [path.join(root, 'scripts/demo.ts')],
      outfile: out('demo.mjs'),
      format: 'esm',
      banner: { js: esmRequireShim },
    }),
  demoMcp: () =>
    build({
      ...node,
      entryPoints: [path.join(root, 'scripts/demo-mcp.ts')],
      outfile: out('demo-mcp.mjs'),
      format: 'esm',
      banner: { js: esmRequireShim },
    }),
  emulator: () =>
    build({
      ...node,
      entryPoints: [path.join(root, 'test/emulator/cli.ts')],
      outfile: out('emulator.mjs'),
      format: 'esm',
      banner: { js: esmRequireShim },
    }),
};

export async function buildTargets(names = Object.keys(targets)) {
  await mkdir(out('main'), { recursive: true });
  await mkdir(out('renderer'), { recursive: true });
  await Promise.all(names.map((name) => targets[name]()));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  const unknown = names.filter((n) => !(n in targets));
  if (unknown.length) {
    console.error(
      `Unknown build target(s): ${unknown.join(', ')}. Known: ${Object.keys(targets).join(', ')}`,
    );
    process.exit(2);
  }
  await buildTargets(names.length ? names : undefined);
}
