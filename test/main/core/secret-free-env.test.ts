/**
 * No process the tray starts carries a token in its environment: the MCP child gets a scrubbed
 * copy (mcp-launcher.test.ts), and whatever Electron spawns inherits the tray's own environment,
 * which the tray scrubs at start-up.
 */
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { childEnv } from '../../../src-main/core/clients/mcp-launcher.ts';
import { withoutSecrets } from '../../../src-shared/secret-free-env.ts';
import { TOKEN_PATTERN, repoRoot } from '../helpers.ts';
import { fixtureScript } from '../../harness/fixture-bundles.ts';

const LEAK = 'roam-graph-local-token-LEAKLEAKLEAKLEAKLEAK';
const MCP_KEY = 'roam-mcp-key-LEAKLEAKLEAKLEAKLEAK';

it('a process started after the tray scrubbed its environment inherits no secret', () => {
  const output = execFileSync(process.execPath, [fixtureScript('scrub-then-spawn')], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      KEEP_ME: 'visible',
      ROAM_API_TOKEN: LEAK,
      BACKUP_NOTE: `copy of ${LEAK}`,
      SERVICE_PASSWORD: 'hunter2',
      ROAM_MCP_KEY: MCP_KEY,
      MY_SERVICE_TOKEN: 'opaque',
    },
  }).toString('utf8');
  const env = JSON.parse(output) as Record<string, string>;
  expect(env.KEEP_ME).toBe('visible');
  expect(Object.keys(env)).not.toContain('ROAM_API_TOKEN');
  expect(Object.keys(env)).not.toContain('SERVICE_PASSWORD');
  expect(Object.keys(env)).not.toContain('ROAM_MCP_KEY');
  expect(Object.keys(env)).not.toContain('MY_SERVICE_TOKEN');
  expect(output).not.toMatch(TOKEN_PATTERN);
  expect(output).not.toContain(MCP_KEY);
});

it('the MCP child env also drops a Roam token held under an innocuous name', () => {
  expect(childEnv({ PATH: '/bin', NOTES: LEAK })).toEqual({ PATH: '/bin', ROAM_MCP_CONFIG_FROM_PARENT: '1' });
});

it('every *_KEY and *_TOKEN, ROAM_MCP_KEY first, stays out of the MCP child; a per-key limit is no key', () => {
  const env = childEnv({
    PATH: '/bin',
    ROAM_MCP_KEY: MCP_KEY,
    roam_mcp_key: MCP_KEY,
    GEMINI_API_KEY: 'g',
    OPENAI_KEY: 'o',
    KEY: 'bare',
    GITHUB_TOKEN: 'ghp_x',
    CODEX_HOME_NOTE: `see ${MCP_KEY}`,
    ROAM_MCP_HTTP_MAX_CHATS_PER_KEY: '4',
    KEYBOARD_LAYOUT: 'dvorak',
    MONKEY: 'not a key name part',
  });
  expect(env).toEqual({
    PATH: '/bin',
    ROAM_MCP_HTTP_MAX_CHATS_PER_KEY: '4',
    KEYBOARD_LAYOUT: 'dvorak',
    MONKEY: 'not a key name part',
    ROAM_MCP_CONFIG_FROM_PARENT: '1',
  });
});

it('withoutSecrets drops an HTTP key held under any name', () => {
  expect(withoutSecrets({ A: `Bearer ${MCP_KEY}`, B: 'b' })).toEqual({ B: 'b' });
});
