import { mkdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STALE_MS, withFileLock } from '../../../src-shared/node/file-lock.ts';
import { tempDir } from '../../harness/temp-dir.ts';

const tempFile = async () => {
  const file = path.join(await tempDir('roam-lock-'), 'data.json');
  await writeFile(file, '{}');
  return file;
};

describe('withFileLock (proper-lockfile)', () => {
  it('holds <file>.lock while the function runs, and releases it', async () => {
    const file = await tempFile();
    const seen = await withFileLock(file, 'busy', async () => (await stat(`${file}.lock`)).isDirectory());
    expect(seen).toBe(true);
    await expect(stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('breaks a lock nobody refreshed for longer than the stale time', async () => {
    const file = await tempFile();
    await mkdir(`${file}.lock`);
    const old = new Date(Date.now() - STALE_MS - 1_000);
    await utimes(`${file}.lock`, old, old);
    await expect(withFileLock(file, 'busy', () => 'ran')).resolves.toBe('ran');
  });

  it('never breaks the lock of a live holder slower than the stale time', { timeout: 30_000 }, async () => {
    const file = await tempFile();
    // Outliving a shorter stale time proves the refresh as outliving STALE_MS does, 2 s sooner.
    const timing = { staleMs: 3_000 };
    const order: string[] = [];
    let entered!: () => void;
    const holding = new Promise<void>((resolve) => (entered = resolve));
    const slow = withFileLock(
      file,
      'busy',
      async () => {
        entered();
        order.push('slow starts');
        // The waiter looks at the lock at least every 150 ms (file-lock.ts, RETRIES): half a second
        // past the stale time, it has found the lock stale three times over unless it was refreshed.
        await new Promise((resolve) => setTimeout(resolve, timing.staleMs + 500));
        order.push('slow ends');
      },
      undefined,
      timing,
    );
    await holding;
    await withFileLock(file, 'busy', () => order.push('second'), undefined, timing);
    await slow;
    expect(order).toEqual(['slow starts', 'slow ends', 'second']);
  });

  it('many waiters on one stale lock: one breaks it, all run one after the other', async () => {
    const file = await tempFile();
    await mkdir(`${file}.lock`);
    const old = new Date(Date.now() - STALE_MS - 1_000);
    await utimes(`${file}.lock`, old, old);
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withFileLock(file, 'busy', async () => {
          inside += 1;
          most = Math.max(most, inside);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inside -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
    await expect(stat(`${file}.lock.breaking`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  // Regression: a process-wide record of held locks was cleared by a holder after its release, when
  // the next waiter of the same process could already hold the lock again. That waiter's release
  // then took its own lock for another holder's, left it in place, and every waiter waited out the
  // stale time: with a minute's stale time, past the bounded wait (this test failed in 1 run of 2).
  // The 8 rounds of 50 waiters run 4 at a time, each on its own file: the same 400 hand-overs
  // within one process, without waiting out each round's retry timers one round after another.
  it(
    'each holder of one process releases its own lock as the next one takes it',
    { timeout: 60_000 },
    async () => {
      const timing = { staleMs: 60_000 };
      let held = 0;
      const hold = async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        held += 1;
      };
      const round = async () => {
        const file = await tempFile();
        await mkdir(`${file}.lock`);
        const old = new Date(Date.now() - timing.staleMs - 1_000);
        await utimes(`${file}.lock`, old, old);
        const waiters = Array.from({ length: 50 }, () => withFileLock(file, 'busy', hold, undefined, timing));
        await expect(Promise.all(waiters)).resolves.toHaveLength(50);
      };
      for (let batch = 0; batch < 2; batch++) await Promise.all(Array.from({ length: 4 }, round));
      expect(held).toBe(8 * 50);
    },
  );

  it('serializes concurrent read-modify-writes', async () => {
    const file = await tempFile();
    let counter = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withFileLock(file, 'busy', async () => {
          const read = counter;
          await new Promise((resolve) => setImmediate(resolve));
          counter = read + 1;
        }),
      ),
    );
    expect(counter).toBe(20);
  });
});
