/**
 * file_upload's local-path rules on real files: a home with secrets where people keep them
 * (~/.ssh, ~/.aws, Claude's config, the tray's store and key in every platform's place, our data
 * folder), one allowed folder with symlinks, dot-files, a FIFO and a directory in it. Property:
 * whatever path shape an agent sends, it gets an allowed file's bytes or the one refusal, never a
 * secret, and the refusal does not tell a missing file from a forbidden one. Then the same with
 * another process swapping a directory of the path for a symlink to secrets while uploads run.
 */
import fc from 'fast-check';
import { fork, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../../src-mcp/contract/tool-errors.ts';
import { readUploadFile } from '../../../src-mcp/uploads/local-file.ts';
import { UploadFolders } from '../../../src-mcp/uploads/upload-folders.ts';
import { tempDir } from '../../harness/temp-dir.ts';
import { toolsConfigPath } from '../../harness/mcp-bin.ts';

const SECRET = 'SECRET-BYTES';
const ALLOWED = { photo: 'PHOTO-BYTES', notes: 'NOTES-BYTES', deep: 'DEEP-BYTES' };
let root: string;
let home: string;
let allowed: string;
let outside: string;
const env = (): NodeJS.ProcessEnv => ({ HOME: home });
/** What the server would lend file_upload: this file's own. */
const uploads = new UploadFolders();

async function put(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

beforeAll(async () => {
  root = await realpath(await tempDir('upload-paths-'));
  home = path.join(root, 'home');
  allowed = path.join(home, 'Pictures');
  outside = path.join(root, 'outside');
  for (const secret of [
    '.ssh/id_ed25519',
    '.aws/credentials',
    '.config/Claude/claude_desktop_config.json',
    '.config/Roam Companion/config.json',
    '.config/Roam Companion/preview-secret.key',
    'Library/Application Support/Roam Companion/config.json',
    'Library/Application Support/Claude/claude_desktop_config.json',
    'AppData/Roaming/Roam Companion/config.json',
    '.local/share/roam-companion/journal/changes.jsonl',
    '.roam-tools.json',
    '.roam-local-api.json',
    'Pictures/.hidden.txt',
    'Pictures/.git/config',
    'Pictures/sub/.env',
  ])
    await put(path.join(home, secret), SECRET);
  await put(path.join(outside, 'secret.txt'), SECRET);
  await put(path.join(outside, 'sub', 'notes.md'), SECRET);
  await put(path.join(allowed, 'photo.png'), ALLOWED.photo);
  await put(path.join(allowed, 'sub', 'notes.md'), ALLOWED.notes);
  await put(path.join(allowed, 'sub', 'deeper', 'deep.txt'), ALLOWED.deep);
  await mkdir(path.join(allowed, 'empty-dir'));
  execFileSync('mkfifo', [path.join(allowed, 'pipe')]);
  await symlink(path.join(home, '.ssh', 'id_ed25519'), path.join(allowed, 'key-link'));
  await symlink(path.join(home, '.ssh'), path.join(allowed, 'ssh-dir'));
  await symlink(outside, path.join(allowed, 'outside-dir'));
  await symlink(toolsConfigPath(home), path.join(allowed, 'config-link.json'));
  await symlink(path.join(allowed, 'photo.png'), path.join(allowed, 'photo-link.png'));
  await symlink(path.join(allowed, 'photo.png'), path.join(allowed, '.dot-link.png'));
  await symlink(path.join(allowed, 'photo.png'), path.join(outside, 'into-allowed.png'));
  uploads.set('cli', { folders: [allowed] }, 'test', home);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

type Outcome = { read: string } | { refused: string; code: string };

async function attempt(filePath: string): Promise<Outcome> {
  try {
    const { bytes } = await readUploadFile(filePath, { allowed: uploads, home, env: env(), maxBytes: 1024 });
    return { read: bytes.toString() };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    // The path is part of the message; the rest must not depend on what is there.
    return { refused: error.message.replace(filePath, '<path>'), code: error.code };
  }
}

const COMPONENTS = [
  '.',
  '..',
  '',
  'sub',
  'deeper',
  'photo.png',
  'notes.md',
  'deep.txt',
  'pipe',
  'empty-dir',
  'key-link',
  'ssh-dir',
  'outside-dir',
  'config-link.json',
  'photo-link.png',
  '.dot-link.png',
  '.ssh',
  'id_ed25519',
  '.aws',
  'credentials',
  '.config',
  'Claude',
  'Roam Companion',
  'config.json',
  'preview-secret.key',
  'Library',
  'Application Support',
  'AppData',
  'Roaming',
  '.local',
  'share',
  'roam-companion',
  '.roam-tools.json',
  '.hidden.txt',
  '.git',
  '.env',
  'secret.txt',
  'outside',
  'into-allowed.png',
  'Pictures',
  'home',
  'missing',
  'missing.png',
];

describe('which local paths file_upload reads', () => {
  it('reads allowed files, directly, below the folder, through ~ and through a symlink inside the folder', async () => {
    expect(await attempt(path.join(allowed, 'photo.png'))).toEqual({ read: ALLOWED.photo });
    expect(await attempt('~/Pictures/sub/notes.md')).toEqual({ read: ALLOWED.notes });
    expect(await attempt(`${allowed}/sub/./deeper/../deeper/deep.txt`)).toEqual({ read: ALLOWED.deep });
    expect(await attempt(path.join(allowed, 'photo-link.png'))).toEqual({ read: ALLOWED.photo });
    // What counts is the file read: a link from elsewhere to an allowed file reads that file.
    expect(await attempt(path.join(outside, 'into-allowed.png'))).toEqual({ read: ALLOWED.photo });
  });

  it('refuses secrets, dot-files, links out, pipes and missing files with one and the same answer', async () => {
    const refusals = new Set<string>();
    for (const shape of [
      path.join(home, '.ssh', 'id_ed25519'),
      path.join(allowed, 'key-link'),
      path.join(allowed, 'ssh-dir', 'id_ed25519'),
      path.join(allowed, 'outside-dir', 'secret.txt'),
      path.join(allowed, 'config-link.json'),
      path.join(allowed, '.hidden.txt'),
      path.join(allowed, '.dot-link.png'),
      path.join(allowed, '.git', 'config'),
      path.join(allowed, 'pipe'),
      path.join(allowed, 'empty-dir'),
      path.join(allowed, 'missing.png'),
      path.join(outside, 'missing.png'),
      path.join(home, 'Library', 'Application Support', 'Roam Companion', 'config.json'),
      path.join(home, 'AppData', 'Roaming', 'Roam Companion', 'config.json'),
      '~/.config/Roam Companion/preview-secret.key',
      '/etc/passwd',
    ]) {
      const outcome = await attempt(shape);
      expect(outcome, shape).toHaveProperty('refused');
      refusals.add(JSON.stringify(outcome));
    }
    expect(refusals.size).toBe(1);
  });

  it('any path shape: an allowed file or the one refusal, never a secret', async () => {
    const oneAnswer = (await attempt(path.join(allowed, 'missing.png'))) as { refused: string };
    const start = fc.constantFrom(allowed, home, outside, root, '/', '~', '~/Pictures');
    const shape = fc
      .tuple(start, fc.array(fc.constantFrom(...COMPONENTS), { maxLength: 6 }), fc.constantFrom('/', '//'))
      .map(([from, parts, sep]) => [from, ...parts].join(sep));
    await fc.assert(
      fc.asyncProperty(shape, async (filePath) => {
        const outcome = await attempt(filePath);
        if ('read' in outcome) expect(Object.values(ALLOWED)).toContain(outcome.read);
        else expect(outcome.refused, filePath).toBe(oneAnswer.refused);
      }),
      { numRuns: 1500 },
    );
  });

  it('with no upload folder, nothing local is read, and the answer says how the user allows one', async () => {
    uploads.set('cli', {}, 'test', home);
    try {
      const outcome = await attempt(path.join(allowed, 'photo.png'));
      expect(outcome).toMatchObject({ code: 'UPLOAD_FOLDER_NOT_SET' });
      expect((outcome as { refused: string }).refused).toMatch(/uploadFolders.*--upload-folder/s);
    } finally {
      uploads.set('cli', { folders: [allowed] }, 'test', home);
    }
  });

  it('an allowed folder inside a dot-folder is ignored; one inside ~/Library is honoured', async () => {
    await put(path.join(home, 'Library', 'Mobile Documents', 'doc.txt'), ALLOWED.notes);
    uploads.set(
      'config',
      { folders: [path.join(home, '.ssh'), path.join(home, 'Library', 'Mobile Documents')] },
      'test',
      home,
    );
    try {
      expect(await attempt(path.join(home, '.ssh', 'id_ed25519'))).toHaveProperty('refused');
      expect(await attempt('~/Library/Mobile Documents/doc.txt')).toEqual({ read: ALLOWED.notes });
      expect(await attempt('~/Library/Application Support/Claude/claude_desktop_config.json')).toHaveProperty(
        'refused',
      );
    } finally {
      uploads.set('config', {}, 'test', home);
    }
  });
});

describe('racing the checks', () => {
  let racer: ChildProcess | undefined;
  afterAll(() => {
    racer?.kill('SIGKILL');
  });

  it.each([
    ['a dot-folder', 'race-1', () => path.join(home, '.ssh-race')],
    ['a folder outside the upload folders', 'race-2', () => path.join(outside, 'race')],
  ])(
    'a directory of the path swapped for a symlink to %s never yields its file',
    { timeout: 120_000 },
    async (_label, name, secretDir) => {
      const dir = path.join(allowed, name);
      await put(path.join(dir, 'notes.md'), ALLOWED.notes);
      await put(path.join(secretDir(), 'notes.md'), SECRET);
      racer = fork(path.join(import.meta.dirname, 'fixtures', 'symlink-racer.mjs'), [dir, secretDir()], {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      await once(racer, 'message');
      const outcomes = { read: 0, refused: 0 };
      for (let i = 0; i < 300; i++) {
        const outcome = await attempt(path.join(dir, 'notes.md'));
        if ('read' in outcome) {
          expect(outcome.read).toBe(ALLOWED.notes);
          outcomes.read++;
        } else outcomes.refused++;
      }
      racer.kill('SIGKILL');
      await once(racer, 'exit');
      racer = undefined;
      expect(outcomes.read + outcomes.refused).toBe(300);
    },
  );
});
