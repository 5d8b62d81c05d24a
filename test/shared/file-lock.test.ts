import { mkdtemp, readFile, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFileLock } from '../../src-shared/node/file-lock.ts';

const tempLock = async () => path.join(await mkdtemp(path.join(os.tmpdir(), 'roam-lock-')), 'x.lock');
const backdate = (file: string, ms: number) =>
  utimes(file, new Date(Date.now() - ms), new Date(Date.now() - ms));

describe('withFileLock', () => {
  it('holds the lock with our pid while the function runs, and releases it', async () => {
    const lock = await tempLock();
    const seen = await withFileLock(lock, 'busy', () => readFile(lock, 'utf8'));
    expect(seen).toBe(String(process.pid));
    await expect(readFile(lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('breaks a lock left by a dead process', async () => {
    const lock = await tempLock();
    await writeFile(lock, '2147483646'); // no such pid
    await expect(withFileLock(lock, 'busy', () => 'ran')).resolves.toBe('ran');
  });

  it('breaks an empty lock whose holder was killed before writing its pid', async () => {
    const lock = await tempLock();
    await writeFile(lock, '');
    await backdate(lock, 2_000);
    await expect(withFileLock(lock, 'busy', () => 'ran')).resolves.toBe('ran');
  });

  it('serializes concurrent read-modify-writes', async () => {
    const lock = await tempLock();
    let counter = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withFileLock(lock, 'busy', async () => {
          const read = counter;
          await new Promise((resolve) => setImmediate(resolve));
          counter = read + 1;
        }),
      ),
    );
    expect(counter).toBe(20);
  });
});
