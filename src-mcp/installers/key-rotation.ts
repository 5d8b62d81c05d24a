/**
 * A client's new HTTP key, made before its entry is written, and its old key revoked only after
 * (docs/clients.md, Keys): the new key waits as `<client>-new` while the entry holding the old one
 * still works; once the written entry reads back holding the new key, the old key and the client's
 * keys no entry holds go, and the new one takes the client's name in the same step. A write that
 * fails takes back only the new key. The CLI's `install --transport http` and the tray use it.
 */
import type { ClientId } from '../../src-shared/clients.ts';
import type { KeyStore, WhichKey } from '../data-folder/key-store.ts';
import type { KeyBehind } from './http-entry.ts';
import { keyBehind } from './installer.ts';
import type { InstallerOptions } from './installer-options.ts';

/** The name a new key has until the entry holding it is written: the old key keeps the client's. */
export const newKeyName = (id: ClientId) => `${id}-new`;
/** An old key the person revokes once the entry they replace works (Claude Code's). */
const oldKeyName = (id: ClientId) => `${id}-old`;

export interface KeyRotation {
  /** The new key: into the entry only, never shown. */
  key: string;
  /** The entry now holds the new key: the old keys go, and the new one takes the client's name. */
  settle(): Promise<void>;
  /**
   * The person replaces the entry themselves (Claude Code): the new key takes the client's name,
   * the old one keeps working as `<client>-old` until they revoke it. Returns that name, or
   * undefined when no entry held a key.
   */
  keepOld(): Promise<string | undefined>;
  /** The entry was not written: the new key goes, the old one works as before. */
  abandon(): Promise<void>;
}

/** Makes `id`'s new key beside the one its entry holds now (`behind`), with `toolsets` for its chats. */
export async function rotateKey(
  store: KeyStore,
  id: ClientId,
  behind: KeyBehind | undefined,
  toolsets?: readonly string[],
): Promise<KeyRotation> {
  // An earlier run that stopped before its new key took the client's name: the entry holds that
  // key (it is the old one now, named as the client), or nothing does (it goes).
  if (behind?.info.name === newKeyName(id)) {
    const named = (await store.list()).some((info) => info.name === id);
    await store.settle(named ? [id] : [], [{ which: behind.which, to: id }]);
  } else await store.settle([newKeyName(id)]);
  const { key } = await store.create(newKeyName(id), undefined, toolsets?.join(','));
  const asNamed = { which: { key }, to: id };
  /** The old key, and the client's keys no entry holds (an earlier install's); `keep` stays. */
  const others = async (keep?: KeyBehind): Promise<WhichKey[]> => [
    ...(behind && behind !== keep ? [behind.which] : []),
    ...(await store.list())
      .map((info) => info.name)
      .filter((name) => (name === id || name === oldKeyName(id)) && name !== keep?.info.name),
  ];
  return {
    key,
    settle: async () => store.settle(await others(), [asNamed]),
    async keepOld() {
      if (!behind) {
        await store.settle(await others(), [asNamed]);
        return undefined;
      }
      await store.settle(await others(behind), [{ which: behind.which, to: oldKeyName(id) }, asNamed]);
      return oldKeyName(id);
    },
    abandon: () => store.settle([{ key }]),
  };
}

/** Whether the client's entry, read back as the client reads its file, holds `key`. */
export async function entryHoldsKey(id: ClientId, key: string, opts: InstallerOptions): Promise<boolean> {
  const now = await keyBehind(id, opts);
  return !!now && typeof now.which !== 'string' && now.which.key === key;
}
