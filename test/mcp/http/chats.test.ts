/**
 * The chat registry under the cap, on a clock the test moves: 2025 sessions are never evicted, a
 * 2026-07-28 chat idle for five minutes makes room, a busy one does not; a chat belongs to its key;
 * a revoked key's chats end.
 */
import { expect, it } from 'vitest';
import { Chats } from '../../../src-mcp/http/chats.ts';
import type { KeyEntry } from '../../../src-mcp/http/key-store.ts';

const key = (name: string): KeyEntry => ({ name, sha256: '0'.repeat(64), createdAt: '2026-11-26T00:00:00Z' });
const MINUTE = 60_000;

function registry(max: number) {
  let now = 0;
  const chats = new Chats(max, 60 * MINUTE, () => now);
  return { chats, advance: (ms: number) => (now += ms) };
}

it('at the cap a new chat is refused while every chat is busy', () => {
  const { chats, advance } = registry(2);
  expect(chats.modern(key('a'), 'one')).toBeDefined();
  expect(chats.modern(key('a'), 'two')).toBeDefined();
  advance(4 * MINUTE);
  expect(chats.modern(key('a'), 'three')).toBeUndefined();
  // Known chats are still served.
  expect(chats.modern(key('a'), 'one')).toBeDefined();
});

it('a 2026-07-28 chat idle for five minutes makes room; a 2025 session never does', () => {
  const { chats, advance } = registry(2);
  const session = chats.legacy(key('a'))!;
  session.register('s1');
  const idle = chats.modern(key('a'), 'idle')!;
  advance(6 * MINUTE);
  chats.session(key('a'), 's1'); // the session is busy; the modern chat is not
  const fresh = chats.modern(key('a'), 'fresh');
  expect(fresh).toBeDefined();
  expect(chats.modern(key('a'), 'idle')).not.toBe(idle);
  expect(chats.session(key('a'), 's1')).toBe(session.chat);
});

it('a chat belongs to its key: the same id under another key is another chat; a session is only its key’s', () => {
  const { chats } = registry(10);
  expect(chats.modern(key('a'), 'x')).not.toBe(chats.modern(key('b'), 'x'));
  const session = chats.legacy(key('a'))!;
  session.register('s1');
  expect(chats.session(key('b'), 's1')).toBeUndefined();
});

it('a revoked key’s chats end, the others stay', async () => {
  const { chats } = registry(10);
  let closed = 0;
  const session = chats.legacy(key('gone'))!;
  session.register('s1');
  session.chat.close = async () => void closed++;
  const kept = chats.modern(key('kept'), null)!;
  await chats.endKeys(['gone']);
  expect(closed).toBe(1);
  expect(chats.session(key('gone'), 's1')).toBeUndefined();
  expect(chats.modern(key('kept'), null)).toBe(kept);
});
