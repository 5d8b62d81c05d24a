/** Decides whether our entry in a client's config still launches this copy of Roam Companion. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ClientInstallState } from '../../src-shared/ipc-contract.ts';
import { isPlainObject } from './config-document.ts';

export interface EntryState {
  state: Exclude<ClientInstallState, 'unavailable'>;
  /** Why the entry is stale (what to do next is up to the caller). */
  message?: string;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** True when `entry` has every field of `desired` (a missing `type` means stdio, as clients read it). */
export function entryMatches(entry: unknown, desired: Record<string, unknown>): boolean {
  if (!isPlainObject(entry)) return false;
  return Object.entries(desired).every(([field, value]) =>
    sameValue(field === 'type' ? (entry.type ?? 'stdio') : entry[field], value),
  );
}

function launchLine(entry: Record<string, unknown>): string {
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  return [String(entry.command ?? '(no command)'), ...args].join(' ');
}

/**
 * `installed` when the entry matches `desired`; `stale` when it exists but launches something
 * else or a path that is gone (the app was moved, the package removed); `not-installed` when absent.
 */
export async function entryState(entry: unknown, desired: Record<string, unknown>): Promise<EntryState> {
  if (entry === undefined) return { state: 'not-installed' };
  if (!isPlainObject(entry)) {
    return { state: 'stale', message: 'Our entry is not a valid server entry.' };
  }
  const launched = [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])];
  for (const part of launched) {
    if (typeof part === 'string' && path.isAbsolute(part) && !(await exists(part))) {
      return {
        state: 'stale',
        message: `Our entry launches ${part}, which no longer exists (was Roam Companion moved or removed?).`,
      };
    }
  }
  if (!entryMatches(entry, desired)) {
    return {
      state: 'stale',
      message: `Our entry launches "${launchLine(entry)}", not this copy of Roam Companion ("${launchLine(desired)}").`,
    };
  }
  return { state: 'installed' };
}
