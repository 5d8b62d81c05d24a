/**
 * Where the upload folders come from: `--upload-folder` (repeatable, `=` form too) and
 * `uploadFolders` in the config file, with what is not a list of folder paths named in a warning.
 */
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src-mcp/cli/cli-args.ts';
import { parseConfigText } from '../../../src-mcp/config/config-file.ts';

describe('upload folder sources', () => {
  it('--upload-folder is repeatable and needs a path', () => {
    expect(parseCliArgs(['--upload-folder', '~/Pictures', '--upload-folder=/srv/scans'])).toMatchObject({
      command: 'serve',
      uploadFolders: ['~/Pictures', '/srv/scans'],
    });
    expect(parseCliArgs(['--upload-folder'])).toMatchObject({
      command: 'error',
      message: /needs a folder path/,
    });
    expect(parseCliArgs(['--upload-folder='])).toMatchObject({ command: 'error' });
  });

  it('uploadFolders in the config file: a list of strings, else a warning and none', () => {
    const graphs = [{ name: 'g', token: 'roam-graph-local-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }];
    const good = parseConfigText(JSON.stringify({ graphs, uploadFolders: ['~/Pictures'] }), '/c.json');
    expect([good.uploadFolders, good.errors]).toEqual([['~/Pictures'], []]);
    for (const bad of ['~/Pictures', [1], { a: 1 }]) {
      const parsed = parseConfigText(JSON.stringify({ graphs, uploadFolders: bad }), '/c.json');
      expect(parsed.uploadFolders).toBeUndefined();
      expect(parsed.errors).toEqual([]);
      expect(parsed.warnings.join(' ')).toMatch(/\/c\.json: uploadFolders must be a list of folder paths/);
    }
  });
});
