/**
 * How `npm test` runs, as docs/mcp.md (Node versions) and test/README.md (Order of a run) say: the
 * Node 22 pass drives both suites with the v1 client, the Node 24 pass the stdio suite with the v2
 * client, so every Node line and every protocol era runs; and a run with no durations of its own
 * (a clean clone) starts the longest recorded files first, unknown files before them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TestSpecification, Vitest } from 'vitest/node';
import { expect, it } from 'vitest';
import { ltsNodePath, ltsNodeSupported } from '../../scripts/lts-node.mjs';
import { CLIENT_SUITE, passOf, PASSES, STDIO_SUITE } from '../../scripts/test-passes.mjs';
import { ROOT } from '../harness/mcp-bin.ts';
import recorded from '../file-durations.json' with { type: 'json' };
import LongestFirst from '../sequencer.ts';
import { needsOf } from '../run-needs.ts';

it('pairs each LTS Node line with one protocol era, over files that exist', () => {
  expect(PASSES).toEqual(['node22', 'node24']);
  const node22 = passOf('node22');
  const node24 = passOf('node24');
  if (node22.skipped !== undefined || node24.skipped !== undefined)
    throw new Error('no pass may be skipped here');
  expect(new Set(node22.files)).toEqual(new Set([...STDIO_SUITE, ...CLIENT_SUITE]));
  expect(node22.env.ROAM_TEST_CLIENT).toBe('v1');
  expect(node24.files).toEqual(STDIO_SUITE);
  expect(node24.env.ROAM_TEST_CLIENT).toBeUndefined();
  if (ltsNodeSupported) {
    expect(node22.env.ROAM_TEST_NODE).toBe(ltsNodePath('node22'));
    expect(node24.env.ROAM_TEST_NODE).toBe(ltsNodePath('node24'));
  }
  for (const file of [...STDIO_SUITE, ...CLIENT_SUITE])
    expect(existsSync(path.join(ROOT, file)), file).toBe(true);
});

it('without cached durations, orders each project longest recorded first and unknown files before them', async () => {
  const spec = (project: string, file: string, isolate = false) =>
    ({
      project: { name: project, config: { isolate } },
      moduleId: path.join(ROOT, file),
    }) as unknown as TestSpecification;
  const noCache = {
    config: { root: ROOT },
    cache: { getFileTestResults: () => undefined },
  } as unknown as Vitest;
  const durations: Record<string, number> = recorded;
  const [long, short] = Object.entries(durations)
    .filter(([key]) => key.startsWith('main:'))
    .sort(([, a], [, b]) => b - a)
    .filter((_, i, all) => i === 0 || i === all.length - 1)
    .map(([key]) => key.slice('main:'.length));
  const files = [
    spec('node24', STDIO_SUITE[0]!),
    spec('main', short!),
    spec('main', 'test/not-recorded.test.ts'),
    spec('main', long!),
  ];
  const sorted = await new LongestFirst(noCache).sort(files);
  expect(sorted.map((s) => `${s.project.name}:${path.relative(ROOT, s.moduleId)}`)).toEqual([
    'main:test/not-recorded.test.ts',
    `main:${long}`,
    `main:${short}`,
    `node24:${STDIO_SUITE[0]}`,
  ]);
});

it('fetches and bundles only what the run’s files need, through the test modules they import', async () => {
  const of = async (file: string) => {
    // A moved file would read as needing nothing: each one named here must exist.
    expect(existsSync(path.join(ROOT, file)), file).toBe(true);
    return [...(await needsOf([path.join(ROOT, file)]))].sort();
  };
  expect(await of('test/mcp/server/limits.test.ts')).toEqual([]);
  expect(await of('test/clients/real-clients.test.ts')).toEqual(['realClients']);
  // Through test/clients/inspector.ts.
  expect(await of('test/clients/inspector-cli.test.ts')).toEqual(['ltsNodes']);
  // Through test/main/helpers.ts.
  expect(await of('test/main/core/clients/mcp-launcher.test.ts')).toEqual(['fixtures']);
});
