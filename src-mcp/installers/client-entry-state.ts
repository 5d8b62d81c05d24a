/** The state of our entry in a client's config, read by how it connects: launching roam-mcp, or by URL. */
import type { ClientTransport } from '../../src-shared/clients.ts';
import type { ClientSpec } from './client-catalogue.ts';
import { isPlainObject } from '../../src-shared/plain-object.ts';
import { entryState, toolsetsOfEntry, type EntryState } from './entry-state.ts';
import { httpEntryState } from './http-entry.ts';
import type { InstallerOptions } from './installer-options.ts';

/**
 * A launcher entry is installed when it launches this copy (`opts.launcher`); an http entry when
 * its URL and key work (http-entry.ts), whichever transport an install would choose now.
 */
export async function clientEntryState(
  spec: ClientSpec,
  entry: unknown,
  opts: InstallerOptions,
): Promise<EntryState & { transport?: ClientTransport }> {
  if (entry === undefined) return { state: 'not-installed' };
  const parts = isPlainObject(entry) ? spec.httpPartsOf?.(entry) : undefined;
  if (parts) return { ...(await httpEntryState(spec, parts, opts)), transport: 'http' };
  const state = await entryState(entry, spec.entryFor(opts.launcher));
  const toolsets = toolsetsOfEntry(entry);
  return { ...state, transport: 'stdio', ...(toolsets ? { toolsets } : {}) };
}
