import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../src-mcp/installers/redact-secrets.ts';

describe('redactSecrets', () => {
  it('hides secret-named values and secret-shaped strings, keeping the JSON valid', () => {
    const config = {
      mcpServers: {
        roam: { env: { ROAM_API_TOKEN: 'roam-graph-local-token-abcdefghijklmnop', ROAM_GRAPH: 'work' } },
        api: {
          args: ['--header', 'Authorization: Bearer eyJhbGciOi.J9x_y'],
          env: { OPENAI_API_KEY: 'whatever' },
        },
        misc: {
          args: ['--key=sk-proj-0123456789abcdefghij', 'xoxb-1234567890-abcdef'],
          env: { DB_PASSWORD: 'p"w' },
        },
        'roam-companion': { command: '/usr/bin/node', args: ['/opt/roam-mcp.mjs'] },
      },
    };
    const text = redactSecrets(JSON.stringify(config, null, 2));
    for (const secret of ['abcdefghijklmnop', 'eyJhbGciOi', 'whatever', 'sk-proj', 'xoxb-', 'p\\"w']) {
      expect(text).not.toContain(secret);
    }
    const shown = JSON.parse(text);
    expect(shown.mcpServers.roam.env).toEqual({ ROAM_API_TOKEN: '<hidden>', ROAM_GRAPH: 'work' });
    expect(shown.mcpServers.api.args).toEqual(['--header', 'Authorization: <hidden>']);
    expect(shown.mcpServers['roam-companion']).toEqual(config.mcpServers['roam-companion']);
  });
});
