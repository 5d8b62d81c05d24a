/**
 * `install <client> --transport http`: the entry points the client at the HTTP server with a key
 * of its own (docs/clients.md). The key is made here and goes only into the client's config — or,
 * for Claude Code, into the file its entry's helper prints; the key the entry held keeps working
 * until the new entry is written and reads back holding the new key (`NewKey`). The key carries the client's toolsets (`--tools`, or the sets that fit
 * a client with a tool cap). Without --transport, http is chosen when the client speaks it and a
 * server is running, or Roam Companion serves one and opens at login.
 */
import { readFile } from 'node:fs/promises';
import { clientSpec, type HttpEntryParts } from '../installers/client-catalogue.ts';
import { keyInHeadersFile } from '../installers/claude-code-headers.ts';
import { SERVER_KEY } from '../installers/installer-options.ts';
import { isPlainObject } from '../../src-shared/plain-object.ts';
import { claudeCodeHeadersPath, writeClaudeCodeHeaders } from '../installers/claude-code.ts';
import { InstallerError } from '../installers/installer-error.ts';
import { getClient, keyBehind, previewChange } from '../installers/installer.ts';
import type { KeyBehind } from '../installers/http-entry.ts';
import type { ClientChangeOutcome } from '../../src-shared/clients.ts';
import type { HttpTarget, InstallerOptions } from '../installers/installer-options.ts';
import { DEFAULT_PORT } from '../http/address.ts';
import { KeyStore } from '../data-folder/key-store.ts';
import { entryHoldsKey, newKeyName, rotateKey, type KeyRotation } from '../installers/key-rotation.ts';
import { readAtLoginFile, readUrlFile } from '../data-folder/url-file.ts';
import { installDefaultToolsets, type ToolsetName } from '../../src-shared/toolsets.ts';
import type { ClientId } from '../../src-shared/clients.ts';

export type Transport = 'http' | 'stdio';

/** Shown in a dry run instead of a key that was not made (and hidden like any key). */
const KEY_NOT_MADE = 'roam-mcp-key-made-on-install';

export async function clientHttpTarget(
  id: ClientId,
  asked: Transport | undefined,
  toolsets: readonly ToolsetName[] | undefined,
  dryRun: boolean,
  opts: InstallerOptions,
  err: (text: string) => void,
): Promise<{ target: HttpTarget; made?: NewKey } | undefined> {
  const spec = clientSpec(id);
  if (asked === 'stdio') return undefined;
  if (!spec.httpEntryFor) {
    if (asked === 'http')
      throw new InstallerError(
        'MANUAL_SETUP',
        `${spec.name} takes only servers it starts itself in its config file, so it keeps stdio. Run: roam-mcp install ${id}`,
      );
    return undefined;
  }
  const where = { env: opts.env as NodeJS.ProcessEnv | undefined, home: opts.home };
  const running = await readUrlFile(where);
  const atLogin = running ? undefined : await readAtLoginFile(where);
  if (asked === undefined && !running && !atLogin) return undefined;
  const url = running?.url ?? atLogin ?? `http://127.0.0.1:${DEFAULT_PORT}/mcp`;
  if (atLogin)
    err(
      `Note: Roam Companion is not running now; it serves ${url} whenever it runs, and it opens at login. ${spec.name} connects once it does.\n`,
    );
  else if (!running)
    err(
      `Note: no roam-mcp HTTP server is running. ${spec.name} will connect to ${url} once one is: start it with \`roam-mcp serve --http\` (or run Roam Companion).\n`,
    );
  if (dryRun)
    return {
      target: {
        url,
        key: KEY_NOT_MADE,
        ...(spec.setup === 'command' ? { headersFile: claudeCodeHeadersPath(opts) } : {}),
      },
    };
  // No key is made, nor an earlier one revoked, unless the install can succeed (the client is
  // there, its config ours to edit): previewChange throws what install would.
  if (spec.setup !== 'command')
    await previewChange(id, 'install', { ...opts, http: { url, key: KEY_NOT_MADE } });
  else if ((await getClient(id, opts)).state === 'unavailable')
    throw new InstallerError(
      'CLIENT_UNAVAILABLE',
      `${spec.name} was not found on this computer (no ${(await spec.locate(opts)).configPath}, and ` +
        `\`${spec.program}\` is not on PATH), so no key was made for it. Install ${spec.name}, then run this again.`,
    );
  const store = new KeyStore(where);
  const sets = toolsets ?? installDefaultToolsets(id);
  const rotation = await rotateKey(store, id, await keyBehind(id, opts), sets);
  const { key } = rotation;
  if (!toolsets && sets)
    err(
      `Note: ${spec.name} works poorly with many tools, so its key gets the toolsets ${sets.join(',')}; choose others with --tools SETS.\n`,
    );
  const made = newKey(id, rotation, opts, err);
  const goesTo = `${spec.name}'s config`;
  if (spec.setup === 'command') {
    // Claude Code's key goes into no command line: a 0600 file its entry's helper prints.
    const headersFile = await writeClaudeCodeHeaders(opts, key).catch(async (error: unknown) => {
      await made.abandon();
      throw error;
    });
    err(
      `Made a key for ${spec.name} ('${id}' in roam-mcp key list); it is written only into ${headersFile} ` +
        `(readable by you alone), which the command below has ${spec.name} read at each connection.\n`,
    );
    return { target: { url, key, headersFile }, made };
  }
  err(`Made a key for ${spec.name} ('${id}' in roam-mcp key list); it is written only into ${goesTo}.\n`);
  return { target: { url, key }, made };
}

/** A key made for an install, before its entry is written. */
export interface NewKey {
  /**
   * After the install: once the written entry reads back holding the new key, the old key is revoked
   * and the new one takes the client's name; else both keep working and the person is told which.
   */
  settle(done: ClientChangeOutcome | undefined): Promise<void>;
  /** The install failed: the new key goes, and the old one keeps working as before. */
  abandon(): Promise<void>;
}

function newKey(
  id: ClientId,
  rotation: KeyRotation,
  opts: InstallerOptions,
  err: (text: string) => void,
): NewKey {
  const spec = clientSpec(id);
  const { key } = rotation;
  return {
    abandon: rotation.abandon,
    async settle(done) {
      if (spec.setup === 'command') {
        const headersFile = claudeCodeHeadersPath(opts);
        const written = (await keyInHeadersFile(headersFile)) === key;
        // An entry whose helper prints this file sends the new key already: its old key is free to go.
        if (written && (await entryParts(id, opts))?.keyFile === headersFile) return rotation.settle();
        const old = await rotation.keepOld();
        if (old)
          err(
            `Its old key ('${old}' in roam-mcp key list) keeps working until then. Once \`claude mcp list\` ` +
              `shows roam-companion connected, revoke it: roam-mcp key revoke ${old}\n`,
          );
        return;
      }
      if (done?.client.state === 'installed' && (await entryHoldsKey(id, key, opts)))
        return rotation.settle();
      err(
        `${spec.name}'s new entry does not read as holding its new key ('${newKeyName(id)}'), so the key it ` +
          `held before still works. Run roam-mcp status to see why, then install again.\n`,
      );
    },
  };
}

/** Claude Code's entry already connects to `url` with the key its helper prints from our headers file. */
export async function claudeCodeEntryReadsHeaders(opts: InstallerOptions, url: string): Promise<boolean> {
  const parts = await entryParts('claude-code', opts);
  return parts?.url === url && parts.keyFile === claudeCodeHeadersPath(opts);
}

/** The HTTP parts of the client's entry of ours, as the client reads its file; undefined for none. */
async function entryParts(id: ClientId, opts: InstallerOptions): Promise<HttpEntryParts | undefined> {
  const spec = clientSpec(id);
  const { configPath } = await spec.locate(opts);
  try {
    const entry: unknown = JSON.parse(await readFile(configPath, 'utf8'))?.[spec.serversKey]?.[SERVER_KEY];
    return isPlainObject(entry) ? spec.httpPartsOf?.(entry) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A stdio install or an uninstall replaces what an http install wrote: the key behind the client's
 * entry (`keyBehind`, found by what the entry holds, as the tray does, never by a key's name
 * alone) stops working — only once the new entry is written and reads back as working, or the
 * entry is gone, so the client is never left with a dead key before it has its new entry. Claude
 * Code's entry is the person's to change: its key is theirs to revoke once the new one works.
 */
export async function takeBackKey(
  id: ClientId,
  behind: KeyBehind,
  done: ClientChangeOutcome | undefined,
  opts: InstallerOptions,
  err: (text: string) => void,
): Promise<void> {
  const spec = clientSpec(id);
  if (spec.setup === 'command') {
    err(
      `Its HTTP key ('${behind.info.name}' in roam-mcp key list) keeps working until then. Once \`claude mcp list\` ` +
        `shows roam-companion connected (or gone, after an uninstall), revoke it: roam-mcp key revoke ${behind.info.name}\n`,
    );
    return;
  }
  const settled = done?.client.state === 'installed' || done?.client.state === 'not-installed';
  const still = await keyBehind(id, opts);
  if (still && sameKey(still, behind)) return;
  if (!settled) {
    err(
      `${spec.name}'s new entry does not read as working yet, so its old key ('${behind.info.name}') still works. ` +
        `Once ${spec.name} connects, revoke it: roam-mcp key revoke ${behind.info.name}\n`,
    );
    return;
  }
  await new KeyStore({ env: opts.env as NodeJS.ProcessEnv | undefined, home: opts.home }).revoke(
    behind.which,
  );
}

const sameKey = (a: KeyBehind, b: KeyBehind) =>
  JSON.stringify(a.which) === JSON.stringify(b.which) && a.info.createdAt === b.info.createdAt;
