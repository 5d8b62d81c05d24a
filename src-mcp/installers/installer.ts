/**
 * Connects AI clients to Roam Companion by merging one entry, under our own key, into each
 * client's MCP config: every other server, setting and comment stays; the previous file is backed
 * up; writes are atomic and keep the file's mode, except that a file holding one of our keys is
 * for its owner alone (docs/clients.md, Keys stay private); every edit is parsed back before it is
 * written; a file we can't parse is refused and left as is.
 */
import { mkdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type {
  ClientChangeOutcome,
  ClientChangePreview,
  ClientId,
  ClientView,
} from '../../src-shared/clients.ts';
import { writeFileAtomic } from '../../src-shared/node/atomic-write.ts';
import { claudeCodeAddCommand, claudeCodeView, CLAUDE_CODE_REMOVE_COMMAND } from './claude-code.ts';
import { CLIENT_LIST, clientSpec, desiredEntry, type ClientSpec } from './client-catalogue.ts';
import { parseConfig, withServerEntry, type ConfigDocument } from './config-document.ts';
import { clientEntryState } from './client-entry-state.ts';
import { onPath } from './client-locations.ts';
import { entryMatches, mergedEntry } from './entry-state.ts';
import { InstallerError } from './installer-error.ts';
import { SERVER_KEY, type InstallerOptions } from './installer-options.ts';
import { redactSecrets } from './redact-secrets.ts';
import { keyBehindEntry, type KeyBehind } from './http-entry.ts';
import { isPlainObject } from '../../src-shared/plain-object.ts';

export type ClientAction = 'install' | 'uninstall';

/** Suffix of the single backup kept beside a config: the file as it was before our latest change. */
export const BACKUP_SUFFIX = '.roam-companion-backup';
const NEW_FILE_MODE = 0o600;
/** The group's and others' bits: none may be set on a file holding a key. */
const OTHERS_BITS = 0o077;
const MAX_ATTEMPTS = 3;
/** One of our HTTP keys (src-mcp/data-folder/key-store.ts), in a file's text. */
const OUR_KEY = /roam-mcp-key-[A-Za-z0-9_-]/;

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function ioError(verb: string, file: string, error: unknown): InstallerError {
  return new InstallerError(
    'IO_FAILED',
    `Could not ${verb} ${file} (${errnoCode(error) ?? 'unknown error'}). The file was left as it was. ` +
      'Check that you can open and save it, then try again.',
  );
}

async function readIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw ioError('read', file, error);
  }
}

function unavailableMessage(spec: ClientSpec, clientDir: string): string {
  const onPathToo = spec.program ? ` and \`${spec.program}\` is not on PATH` : '';
  return (
    `${spec.name} doesn't seem to be installed: ${clientDir} doesn't exist${onPathToo}. ` +
    `Install ${spec.name} and open it once, then try again.`
  );
}

/**
 * Where the client's config is, and whether an install may write it: its folder exists, or the
 * client is on PATH but never ran (`makesDir`: the install makes the folder, as the client would).
 */
async function locateClient(spec: ClientSpec, opts: InstallerOptions) {
  const location = await spec.locate(opts);
  const makesDir = !location.clientDirExists && !!spec.program && (await onPath(spec.program, opts));
  return { ...location, makesDir, found: location.clientDirExists || makesDir };
}

async function fileClientView(spec: ClientSpec, opts: InstallerOptions): Promise<ClientView> {
  const location = await locateClient(spec, opts);
  const base = { id: spec.id, name: spec.name, configPath: location.configPath };
  if (!location.found) {
    return { ...base, state: 'unavailable', message: unavailableMessage(spec, location.clientDir) };
  }
  let doc: ConfigDocument | undefined;
  try {
    const text = await readIfExists(location.configPath);
    if (text !== null) doc = parseConfig(location.configPath, text, spec.syntax, spec.serversKey);
  } catch (error) {
    if (error instanceof InstallerError) return { ...base, state: 'unavailable', message: error.message };
    throw error;
  }
  const { message, ...found } = await clientEntryState(spec, doc?.servers?.[SERVER_KEY], opts);
  if (found.state !== 'stale') return { ...base, ...found, ...(message ? { message } : {}) };
  const fix =
    found.transport === 'http'
      ? `Install it again over HTTP to fix it: roam-mcp install ${spec.id} --transport http.`
      : 'Reinstall to update it.';
  return { ...base, ...found, message: `${message} ${fix}` };
}

/**
 * The stored key behind the client's entry of ours (http-entry.ts): what it carries, matched by its
 * hash, or the key it stands for at our server; undefined for a launcher entry, no entry, or a
 * file that cannot be read.
 */
export async function keyBehind(id: ClientId, opts: InstallerOptions): Promise<KeyBehind | undefined> {
  const spec = clientSpec(id);
  const { configPath } = await spec.locate(opts);
  let entry: unknown;
  try {
    const text = await readIfExists(configPath);
    entry =
      text === null
        ? undefined
        : parseConfig(configPath, text, spec.syntax, spec.serversKey).servers?.[SERVER_KEY];
  } catch (error) {
    if (error instanceof InstallerError) return undefined;
    throw error;
  }
  const parts = isPlainObject(entry) ? spec.httpPartsOf?.(entry) : undefined;
  return parts ? keyBehindEntry(spec, parts, opts) : undefined;
}

/** One client's current state. */
export function getClient(id: ClientId, opts: InstallerOptions): Promise<ClientView> {
  const spec = clientSpec(id);
  return spec.setup === 'command' ? claudeCodeView(spec, opts) : fileClientView(spec, opts);
}

/** Every supported client's state, for the "Connect AI clients" screen and `roam-mcp status`. */
export function listClients(opts: InstallerOptions): Promise<ClientView[]> {
  return Promise.all(CLIENT_LIST.map((spec) => getClient(spec.id, opts)));
}

interface ChangePlan {
  configPath: string;
  /** Where to write: the config, or the file its symlink points to (dotfile managers). */
  targetPath: string;
  before: string | null;
  /** Null when there is no file and nothing to remove. */
  after: string | null;
  /** The mode to write: the file's own, narrowed to 0600's bits when it will hold a key. */
  mode: number;
  /** The file's mode before, when a key in it made us take the group's and others' bits away. */
  narrowedFrom?: number;
  /** The client's folder, when the install makes it (a client on PATH that never ran). */
  makesDir?: string;
}

/**
 * A file holding a key is for its owner alone: 0600 for a new one, and an existing one keeps its
 * owner's bits and loses the group's and others'. On Windows the mode bits mean nothing: the
 * file is as private as the profile's access rules (ACLs) make it.
 */
function modeFor(
  existing: number | undefined,
  after: string | null,
  opts: InstallerOptions,
  fresh = NEW_FILE_MODE,
): { mode: number; narrowedFrom?: number } {
  const mode = existing ?? fresh;
  const windows = (opts.platform ?? process.platform) === 'win32';
  if (windows || after === null || !OUR_KEY.test(after) || (mode & OTHERS_BITS) === 0) return { mode };
  const narrowed = mode & ~OTHERS_BITS;
  return existing === undefined ? { mode: narrowed } : { mode: narrowed, narrowedFrom: existing };
}

function manualSetupError(spec: ClientSpec, action: ClientAction, opts: InstallerOptions): InstallerError {
  const command = action === 'install' ? claudeCodeAddCommand(opts) : CLAUDE_CODE_REMOVE_COMMAND;
  return new InstallerError(
    'MANUAL_SETUP',
    `${spec.name} manages its own settings, so Roam Companion doesn't edit them. Run this in a terminal: ${command}`,
  );
}

/** The git work tree `file` is in (a folder holding `.git`), if any. */
async function gitWorkTreeOf(file: string): Promise<string | undefined> {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (
      await stat(path.join(dir, '.git')).then(
        () => true,
        () => false,
      )
    )
      return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * A key never goes into a file git tracks or may track (a project's `.vscode/mcp.json`, or a
 * user config symlinked into a dotfiles repository): git keeps no file modes, and the key would be
 * committed and pushed with the rest.
 */
async function assertNotInRepository(spec: ClientSpec, plan: { configPath: string; targetPath: string }) {
  const repository = await gitWorkTreeOf(plan.targetPath);
  if (!repository) return;
  const via = plan.targetPath === plan.configPath ? '' : ` (it links to ${plan.targetPath})`;
  throw new InstallerError(
    'CONFIG_INVALID',
    `${plan.configPath}${via} is inside the git repository ${repository}, where a key would be committed ` +
      `with the rest, so Roam Companion did not write one there. Install ${spec.name} over stdio instead, ` +
      `which needs no key (roam-mcp install ${spec.id} --transport stdio), or keep that file out of the repository.`,
  );
}

/**
 * Every edit is read back before it is written: the result must parse as strictly as the client
 * reads it (TOML by a full parser, plain JSON by JSON.parse), hold our entry as meant, and differ
 * from the file only there, so an editing bug never leaves a file its client cannot read or costs
 * the person a setting.
 */
function assertEditReadsBack(
  spec: ClientSpec,
  file: string,
  before: ConfigDocument,
  after: string,
  ours: unknown,
): void {
  const withoutOurs = (doc: ConfigDocument) => {
    const { [SERVER_KEY]: _ours, ...servers } = doc.servers ?? {};
    return JSON.stringify({ ...doc.root, [spec.serversKey]: servers });
  };
  let reread: ConfigDocument | undefined;
  try {
    reread = parseConfig(file, after, spec.syntax, spec.serversKey);
  } catch {
    // Reported below, in words about the edit rather than about the person's file.
  }
  if (!reread) {
    throw new InstallerError(
      'IO_FAILED',
      `Adding the "${SERVER_KEY}" entry would have left ${file} unreadable for ${spec.name}, so nothing was written. ` +
        'Please report this; meanwhile you can add the entry by hand (see docs/clients.md).',
    );
  }
  const asMeant = JSON.stringify(reread.servers?.[SERVER_KEY]) === JSON.stringify(ours);
  const strictlySame = isDeepStrictEqual(strictWithoutOurs(spec, before), strictWithoutOurs(spec, reread));
  if (!asMeant || !strictlySame || withoutOurs(before) !== withoutOurs(reread)) {
    throw new InstallerError(
      'IO_FAILED',
      `Editing ${file} would have changed more than the "${SERVER_KEY}" entry, so nothing was written. ` +
        'Please report this; meanwhile you can add the entry by hand (see docs/clients.md).',
    );
  }
}

/** A TOML file as the full parser read it, without our entry (an emptied server map counts as none). */
function strictWithoutOurs(spec: ClientSpec, doc: ConfigDocument): unknown {
  if (!doc.strict) return undefined;
  const { [spec.serversKey]: servers, ...rest } = doc.strict;
  if (!isPlainObject(servers)) return servers === undefined ? rest : doc.strict;
  const { [SERVER_KEY]: _ours, ...others } = servers;
  return Object.keys(others).length ? { ...rest, [spec.serversKey]: others } : rest;
}

async function planChange(
  spec: ClientSpec,
  action: ClientAction,
  opts: InstallerOptions,
  evenIfClientMissing = false,
): Promise<ChangePlan> {
  if (spec.setup === 'command') throw manualSetupError(spec, action, opts);
  const location = await locateClient(spec, opts);
  if (!location.found && !evenIfClientMissing) {
    throw new InstallerError('CLIENT_UNAVAILABLE', unavailableMessage(spec, location.clientDir));
  }
  const { configPath } = location;
  const targetPath = await realpath(configPath).catch(() => configPath);
  const before = await readIfExists(targetPath);
  const existingMode = before === null ? undefined : (await stat(targetPath)).mode & 0o777;
  const doc = parseConfig(configPath, before ?? '', spec.syntax, spec.serversKey);
  const ours = doc.servers?.[SERVER_KEY];
  const desired = desiredEntry(spec, opts);
  let after: string | null;
  let wanted: unknown;
  if (action === 'uninstall') {
    after = before === null ? null : withServerEntry(doc, spec.serversKey, SERVER_KEY, undefined);
  } else if (entryMatches(ours, desired)) {
    after = before;
  } else {
    // Keep what the user added to our entry (`--read-only` after our args, env, other fields).
    wanted = mergedEntry(ours, desired);
    after = withServerEntry(doc, spec.serversKey, SERVER_KEY, wanted);
  }
  if (after !== null && after !== before) {
    assertEditReadsBack(spec, configPath, doc, after, wanted);
    // Found here, not at the write, so an http install fails before its key is made or an old one revoked.
    if (existingMode !== undefined && (existingMode & 0o200) === 0) {
      // Read-only is the user's choice (or a managed file): a rename would silently override it.
      throw new InstallerError(
        'IO_FAILED',
        `${configPath} is read-only (mode ${existingMode.toString(8)}), so it was left as is. ` +
          `To let Roam Companion edit it, make it writable (chmod u+w '${targetPath}') and try again, ` +
          'or add the entry by hand (see docs/clients.md).',
      );
    }
  }
  // Only an entry that carries a key: a stdio entry is safe in any file.
  if (action === 'install' && opts.http?.key && spec.httpEntryFor)
    await assertNotInRepository(spec, { configPath, targetPath });
  return {
    configPath,
    targetPath,
    before,
    after,
    ...modeFor(existingMode, after, opts),
    ...(location.makesDir && before === null ? { makesDir: location.clientDir } : {}),
  };
}

/**
 * The file's text before and after `action`, with secrets hidden; nothing is written.
 * `after` equals `before` when the change would do nothing; both are null when the file doesn't exist.
 * `evenIfClientMissing`: what the change would write once the client's folder exists (a dry run
 * before the client was ever opened).
 * @throws InstallerError when the client is missing, set up by command (Claude Code), or its file is invalid.
 */
export async function previewChange(
  id: ClientId,
  action: ClientAction,
  opts: InstallerOptions,
  evenIfClientMissing = false,
): Promise<ClientChangePreview> {
  const plan = await planChange(clientSpec(id), action, opts, evenIfClientMissing);
  const shown = (text: string | null) => (text === null ? null : redactSecrets(text));
  return {
    id,
    configPath: plan.configPath,
    action,
    before: shown(plan.before),
    after: shown(plan.after),
    ...(plan.after !== plan.before ? changeNotes(plan) : {}),
  };
}

/** What a change does besides the text: a mode narrowed, a folder made. */
function changeNotes(plan: ChangePlan): Pick<ClientChangeOutcome, 'modeNarrowed' | 'madeDir'> {
  return {
    ...(plan.narrowedFrom !== undefined ? { modeNarrowed: { from: plan.narrowedFrom, to: plan.mode } } : {}),
    ...(plan.makesDir ? { madeDir: plan.makesDir } : {}),
  };
}

async function applyChange(
  id: ClientId,
  action: ClientAction,
  opts: InstallerOptions,
): Promise<ClientChangeOutcome> {
  const spec = clientSpec(id);
  if (spec.setup === 'command') {
    // Nothing to write: the view carries the command for the user to run.
    const client = await claudeCodeView(spec, opts);
    return {
      client: action === 'install' ? client : { ...client, command: CLAUDE_CODE_REMOVE_COMMAND },
      changed: false,
    };
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const plan = await planChange(spec, action, opts);
    if (plan.after === null || plan.after === plan.before) {
      return { client: await getClient(id, opts), changed: false };
    }
    // The client may have rewritten its file since we read it: plan again from the new content.
    if ((await readIfExists(plan.targetPath)) !== plan.before) continue;
    const backupPath = plan.before === null ? undefined : plan.configPath + BACKUP_SUFFIX;
    try {
      let { mode } = plan;
      if (plan.makesDir) {
        // As the client makes them when it first runs: its folder by the umask, and its file too
        // (Gemini CLI's 0666, Codex's 0600, less the umask's bits), unless the file holds a key.
        await mkdir(plan.makesDir, { recursive: true });
        const dirMode = (await stat(plan.makesDir)).mode & 0o777;
        ({ mode } = modeFor(undefined, plan.after, opts, (spec.newFileMode ?? NEW_FILE_MODE) & dirMode));
      }
      if (backupPath !== undefined && plan.before !== null)
        await writeFileAtomic(backupPath, plan.before, NEW_FILE_MODE);
      await writeFileAtomic(plan.targetPath, plan.after, mode);
    } catch (error) {
      throw ioError('write', plan.configPath, error);
    }
    return {
      client: await getClient(id, opts),
      changed: true,
      ...(backupPath ? { backupPath } : {}),
      ...changeNotes(plan),
    };
  }
  throw new InstallerError(
    'IO_FAILED',
    `${spec.name}'s config kept changing while Roam Companion was editing it, so nothing was written. ` +
      `Quit ${spec.name} and try again.`,
  );
}

/**
 * Adds (or updates) our entry in the client's config. Idempotent: a second call changes nothing
 * and makes no backup. For Claude Code nothing is written: `client.command` is what to run.
 * @throws InstallerError when the client is missing or its file is invalid (the file is left untouched).
 */
export function install(id: ClientId, opts: InstallerOptions): Promise<ClientChangeOutcome> {
  return applyChange(id, 'install', opts);
}

/**
 * Removes our entry and nothing else; the file stays even when no server is left. For Claude Code
 * nothing is written: `client.command` is the removal command to run.
 * @throws InstallerError when the client is missing or its file is invalid (the file is left untouched).
 */
export function uninstall(id: ClientId, opts: InstallerOptions): Promise<ClientChangeOutcome> {
  return applyChange(id, 'uninstall', opts);
}
