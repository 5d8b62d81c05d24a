// Bundles every runtime piece with esbuild (not tsc emit) so the MCP child starts fast.
// `node scripts/build.mjs [target...]` builds the named targets, or all of them.
import { build } from 'esbuild';
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { buildChangeReviewHtml } from './build-apps.mjs';
import { markBuilt } from './build-freshness.mjs';

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
  // Chunks before the entry that imports them: a bin started mid-build finds every chunk it names.
  const chunksFirst = [...result.outputFiles].sort(
    (a, b) => Number(b.path.includes(MCP_CHUNKS)) - Number(a.path.includes(MCP_CHUNKS)),
  );
  for (const file of chunksFirst) {
    const temp = `${file.path}.${process.pid}.tmp`;
    await writeFile(temp, file.contents, { mode: file.path.endsWith('.mjs') ? 0o755 : 0o644 });
    await rename(temp, file.path);
  }
}

/** The folder of the bin's chunks, beside dist/roam-mcp.mjs. */
export const MCP_CHUNKS = 'roam-mcp-chunks';
/** In it, the whole server as one file (src-mcp/cli/bin.ts names it too). */
export const MCP_WHOLE = 'roam-mcp-whole.mjs';

/**
 * Removes the chunks an earlier build wrote and this one did not (chunk names carry a hash of
 * their content), so the npm package and the app ship only what the bin imports. A build of the
 * same sources writes the same names: a bin running while it is rebuilt keeps its chunks.
 */
async function removeStaleChunks(outputFiles) {
  const written = new Set(outputFiles.map((file) => path.basename(file.path)));
  const dir = out(MCP_CHUNKS);
  for (const name of await readdir(dir)) {
    if (!written.has(name) && !name.endsWith('.tmp')) await rm(path.join(dir, name), { force: true });
  }
}

/**
 * Node built-ins that Node does not load at start-up, each costing milliseconds when loaded
 * (node:http and node:crypto ~5-10 ms apiece). An ESM bundle hoists every `import ... from
 * 'node:x'` to its top, so each built-in any bundled module imports is loaded before the first
 * answer, even when only a tool or a subcommand loaded later uses it. This plugin bundles each of
 * these as a small module over `process.getBuiltinModule(...)` (Node >= 20.16): its functions
 * (lower-case exports: createHash, randomBytes, spawn) load the built-in at their first call; its
 * constructors, other values and default export load it when the first module importing them
 * runs (the tools' modules run after the first answer, the other commands' never in the server).
 * A wrapper has none of its function's own properties (`strict.equal` of node:assert,
 * `util.promisify.custom` of child_process.exec): reach those through the default import.
 */
const LAZY_BUILTINS = [
  'assert',
  'child_process',
  'crypto',
  'dgram',
  'dns',
  'http',
  'https',
  'net',
  'readline',
  'readline/promises',
  'tls',
  'zlib',
];
const LOADING_ACCESSORS = new Set(['webcrypto', 'subtle', 'getRandomValues', 'rootCertificates', 'promises']);
const nodeRequire = createRequire(import.meta.url);
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|').replace('/', '\\/')})$`);
    // `require` (CommonJS dependencies) stays Node's own: it already runs when its caller does.
    b.onResolve({ filter }, (args) =>
      args.kind === 'require-call'
        ? { path: args.path, external: true }
        : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => {
      const mod = nodeRequire(`node:${args.path}`);
      // Not the accessors that load more of Node when read (a bundled import of one fails the build).
      const names = Object.keys(mod).filter(
        (key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default' && !LOADING_ACCESSORS.has(key),
      );
      const id = JSON.stringify(`node:${args.path}`);
      const isFunction = (key) =>
        /^[a-z]/.test(key) &&
        typeof mod[key] === 'function' &&
        !/^class\b/.test(Function.prototype.toString.call(mod[key]));
      const values = names.filter((key) => !isFunction(key));
      const lines = [
        `const load = () => process.getBuiltinModule(${id});`,
        'const pick = (key) => load()[key];',
        // Pure: esbuild drops what no bundled module imports, so importing only functions loads nothing.
        'export default /* @__PURE__ */ load();',
      ];
      for (const key of names.filter(isFunction))
        lines.push(`export function ${key}(...args) { return load().${key}(...args); }`);
      for (const key of values)
        lines.push(`export const ${key} = /* @__PURE__ */ pick(${JSON.stringify(key)});`);
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

/**
 * What the bin serves as it is (src-mcp/apps/embedded.ts): the agent skill, the shipped
 * skills/roam-companion/SKILL.md itself, inside the code; the change-review app's HTML as a file
 * beside the chunks (inside the code it cost every server's RSS 6.5 MB).
 */
async function embeddedAssets() {
  const skill = await readFile(path.join(root, 'skills/roam-companion/SKILL.md'), 'utf8');
  return { ROAM_MCP_EMBEDDED: JSON.stringify({ skill }) };
}

/** In MCP_CHUNKS, the change-review app's page (src-mcp/apps/embedded.ts reads it). */
const CHANGE_REVIEW_FILE = 'change-review.html';

const node = { bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'warning' };

export const targets = {
  // A small entry (src-mcp/cli/bin.ts) and, beside it in roam-mcp-chunks/, the rest twice: as chunks
  // that each load when first imported (the first answer loads the SDK and the server; the tools
  // load after it; the other commands never load in the server), which a start with Node's compile
  // cache reads already compiled; and as one file, which starts faster where there is no cache
  // (Node 20's loader pays per module). dist/roam-mcp.mjs needs the folder beside it: the npm
  // package, the app's unpacked files and the .mcpb ship both.
  mcp: async () => {
    const shared = {
      ...node,
      format: 'esm',
      // ROAM_BUILD_READABLE=1: names kept, for reading a CPU profile of the bin.
      minify: process.env.ROAM_BUILD_READABLE !== '1',
      // The SDK's Node shim without AJV (src-mcp/process/sdk-node-shims.ts says why).
      alias: { '@modelcontextprotocol/server/_shims': path.join(root, 'src-mcp/process/sdk-node-shims.ts') },
      plugins: [lazyBuiltins],
      define: await embeddedAssets(),
      write: false,
    };
    const [whole, split] = await Promise.all([
      build({
        ...shared,
        entryPoints: [path.join(root, 'src-mcp/cli/roam-mcp.ts')],
        outfile: out(`${MCP_CHUNKS}/${MCP_WHOLE}`),
        banner: { js: esmRequireShim },
      }),
      build({
        ...shared,
        entryPoints: { 'roam-mcp': path.join(root, 'src-mcp/cli/bin.ts') },
        outdir: out(''),
        entryNames: '[name]',
        chunkNames: `${MCP_CHUNKS}/[name]-[hash]`,
        outExtension: { '.js': '.mjs' },
        splitting: true,
        banner: { js: `#!/usr/bin/env node\n${esmRequireShim}` },
      }),
    ]);
    await mkdir(out(MCP_CHUNKS), { recursive: true });
    const page = {
      path: out(`${MCP_CHUNKS}/${CHANGE_REVIEW_FILE}`),
      contents: await buildChangeReviewHtml(root),
    };
    await writeAtomically({ outputFiles: [page] });
    await writeAtomically(whole);
    await writeAtomically(split);
    await removeStaleChunks([page, ...whole.outputFiles, ...split.outputFiles]);
  },
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
  const startedAt = Date.now();
  await buildTargets(names.length ? names : undefined);
  if (names.length === 0) await markBuilt(startedAt);
}
