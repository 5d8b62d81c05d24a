import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { PASSES_ENV, passOf, requestedPasses } from './scripts/test-passes.mjs';
import { vitestCacheDir } from './scripts/vitest-cache.mjs';
import LongestFirst from './test/sequencer.ts';

const ALL = ['test/**/*.test.{ts,tsx}'];
/**
 * Files that need a module registry of their own: `vi.mock('electron')` fakes and the renderer's
 * React tests in jsdom. The server's state is not a reason: what a handler uses (link indexes,
 * upload folders, the journal and its answer to "created by an agent?") is made per server and
 * lent in its context (ownServices in test/harness/http-context.ts makes a test's, as run-server.ts
 * makes the server's), and what belongs to a chat is its chat scope's. Every other file shares
 * its worker's loaded modules with the files before it (isolate: false): they drive the built bin,
 * the emulator and pure functions, so re-importing the SDKs, the emulator and the sources per
 * file would buy nothing.
 */
const OWN_MODULES = [
  'test/main/shell/shell.test.ts',
  'test/reliability/renderer-hardening.test.ts',
  'test/renderer/**/*.test.tsx',
];
/**
 * What every project shares (projects do not extend the root config, so its global setup runs once per run).
 * `expect.poll` waits for something another process does (a bin, the emulator): its default second
 * failed under load (connect-cli's token request), so it gets the time a slow machine needs; a poll
 * that holds returns as soon as it does.
 */
const common = {
  setupFiles: ['test/seeded-properties.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  expect: { poll: { timeout: 10_000 } },
};

/** The main pass: every test file once, the v2 client, the server on the Node running the tests. */
const main: TestProjectInlineConfiguration[] = [
  {
    test: {
      ...common,
      name: 'main',
      include: ALL,
      exclude: [...configDefaults.exclude, ...OWN_MODULES],
      isolate: false,
    },
  },
  { test: { ...common, name: 'main (own modules)', include: OWN_MODULES } },
];

/** The passes ROAM_TEST_PASSES names (scripts/test-passes.mjs): the stdio tests that can differ, again. */
const passes: TestProjectInlineConfiguration[] = requestedPasses(process.env[PASSES_ENV]).flatMap((name) => {
  const pass = passOf(name);
  if (pass.skipped !== undefined) return [];
  return [{ test: { ...common, name, include: pass.files, env: pass.env, isolate: false } }];
});

export default defineConfig({
  cacheDir: vitestCacheDir(import.meta.dirname),
  test: {
    globalSetup: ['test/global-setup.ts'],
    sequence: { sequencer: LongestFirst },
    // The MCP integration tests spawn real processes and servers; two cores, keep it calm.
    maxWorkers: 2,
    projects: [...main, ...passes],
  },
});
