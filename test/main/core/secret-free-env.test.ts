/**
 * No process the tray starts carries a token in its environment: the MCP child gets a scrubbed
 * copy (mcp-launcher.test.ts), and whatever Electron spawns inherits the tray's own environment,
 * which the tray scrubs at start-up.
 */
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { childEnv } from '../../../src-main/core/mcp-launcher.ts';
import { TOKEN_PATTERN, repoRoot } from '../helpers.ts';
import { fixtureScript } from '../../harness/fixture-bundles.ts';

const LEAK = 'roam-graph-local-token-LEAKLEAKLEAKLEAKLEAK';

it('a process started after the tray scrubbed its environment inherits no secret', () => {
  const output = execFileSync(process.execPath, [fixtureScript('scrub-then-spawn')], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      KEEP_ME: 'visible',
      ROAM_API_TOKEN: LEAK,
      BACKUP_NOTE: `copy of ${LEAK}`,
      SERVICE_PASSWORD: 'hunter2',
    },
  }).toString('utf8');
  const env = JSON.parse(output) as Record<string, string>;
  expect(env.KEEP_ME).toBe('visible');
  expect(Object.keys(env)).not.toContain('ROAM_API_TOKEN');
  expect(Object.keys(env)).not.toContain('SERVICE_PASSWORD');
  expect(output).not.toMatch(TOKEN_PATTERN);
});

it('the MCP child env also drops a Roam token held under an innocuous name', () => {
  expect(childEnv({ PATH: '/bin', NOTES: LEAK })).toEqual({ PATH: '/bin', ROAM_MCP_CONFIG_FROM_PARENT: '1' });
});
