/**
 * Auto-waiting checks for the browser tests (playwright-core has no expect): poll the live page
 * until it matches, or fail after `timeoutMs`.
 */
import { expect } from 'vitest';

export const poll = <T>(read: () => Promise<T>, timeoutMs = 10_000, intervalMs = 50) =>
  expect.poll(read, { timeout: timeoutMs, interval: intervalMs });
