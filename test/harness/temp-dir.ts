/** Every test's temporary folders: one place that makes and removes them. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A new empty folder under the system's temp folder, its name starting with `prefix`. */
export async function tempDir(prefix = 'roam-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

/**
 * Removed with retries: a process a test just stopped (a tray core closing, a child exiting) may
 * still be writing its last file there, which makes one pass fail with ENOTEMPTY.
 */
export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

/** A temp folder with its own cleanup. */
export async function scratchDir(prefix = 'roam-test-'): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await tempDir(prefix);
  return { dir, cleanup: () => removeDir(dir) };
}
