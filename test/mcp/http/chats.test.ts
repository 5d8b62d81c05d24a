/**
 * The chat registry under the caps, on a clock the test moves: a 2025 session of a key within its
 * share is never evicted for another key (its own new chat may take it once idle for five minutes), a 2026-07-28 chat idle for five minutes makes room, a busy one does not;
 * a key holds at most its share, and at the server's cap the fullest key's least recently used
 * chat makes room for a key that holds fewer; a chat belongs to its key; a revoked key's chats end.
 */
import { expect, it } from 'vitest';
import { Chats } from '../../../src-mcp/http/chats.ts';
import type { KeyEntry } from '../../../src-mcp/data-folder/key-store.ts';

const key = (name: string): KeyEntry => ({ name, sha256: '0'.repeat(64), createdAt: '2026-11-26T00:00:00Z' });
const MINUTE = 60_000;

function registry(max: number, perKey = max) {
  let now = 0;
  const chats = new Chats({ max, perKey, idleMs: 60 * MINUTE }, () => now);
  return { chats, advance: (ms: number) => (now += ms) };
}

function opened(chats: Chats, name: string) {
  const session = chats.legacy(key(name));
  if (typeof session === 'string') throw new Error(`no room for ${name}: ${session}`);
  return session;
}

it('at the cap a new chat is refused while every chat is busy', () => {
  const { chats, advance } = registry(2);
  expect(chats.modern(key('a'), 'one')).toBeDefined();
  expect(chats.modern(key('b'), 'two')).toBeDefined();
  advance(4 * MINUTE);
  expect(chats.modern(key('c'), 'three')).toBe('server');
  // Known chats are still served.
  expect(chats.modern(key('a'), 'one')).toBeDefined();
});

it('a 2026-07-28 chat idle for five minutes makes room; a 2025 session never does', () => {
  const { chats, advance } = registry(2);
  const session = opened(chats, 'a');
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
  const session = opened(chats, 'a');
  session.register('s1');
  expect(chats.session(key('b'), 's1')).toBeUndefined();
});

it('a revoked key’s chats end, the others stay', async () => {
  const { chats } = registry(10);
  let closed = 0;
  const session = opened(chats, 'gone');
  session.register('s1');
  session.chat.close = async () => void closed++;
  const kept = chats.modern(key('kept'), null)!;
  await chats.endKeys(['gone']);
  expect(closed).toBe(1);
  expect(chats.session(key('gone'), 's1')).toBeUndefined();
  expect(chats.modern(key('kept'), null)).toBe(kept);
});

it('one key holds at most its share, in both eras; its own chat idle for five minutes makes room, in either era', () => {
  const { chats, advance } = registry(10, 2);
  opened(chats, 'greedy').register('s1');
  expect(chats.modern(key('greedy'), 'm1')).not.toBe('key');
  expect(chats.modern(key('greedy'), 'm2')).toBe('key');
  expect(chats.legacy(key('greedy'))).toBe('key');
  expect(chats.modern(key('other'), null)).not.toBe('key');
  advance(4 * MINUTE);
  expect(chats.modern(key('greedy'), 'm2')).toBe('key'); // none idle for five minutes yet
  advance(2 * MINUTE);
  chats.session(key('greedy'), 's1');
  expect(typeof chats.modern(key('greedy'), 'm2')).toBe('object'); // m1 made room
  expect(chats.session(key('greedy'), 's1')).toBeDefined();
  advance(6 * MINUTE);
  chats.modern(key('greedy'), 'm2');
  expect(typeof chats.legacy(key('greedy'))).toBe('object'); // the idle session s1 made room
  expect(chats.session(key('greedy'), 's1')).toBeUndefined();
});

it('at the server cap, the fullest key’s least recently used chat makes room for a key holding fewer', () => {
  const { chats, advance } = registry(4, 3);
  const first = opened(chats, 'greedy');
  first.register('g1');
  advance(1000);
  opened(chats, 'greedy').register('g2');
  advance(1000);
  chats.modern(key('greedy'), 'g3');
  chats.modern(key('polite'), null);
  advance(1000);
  chats.session(key('greedy'), 'g2');
  // greedy holds 3, polite 1: polite's second chat takes greedy's least recently used (g1).
  expect(typeof chats.modern(key('polite'), 'second')).toBe('object');
  expect(chats.session(key('greedy'), 'g1')).toBeUndefined();
  expect(chats.session(key('greedy'), 'g2')).toBeDefined();
  // Now 2 and 2: nobody holds more than polite would, so the cap holds.
  expect(chats.modern(key('polite'), 'third')).toBe('server');
  expect(chats.modern(key('greedy'), 'g4')).toBe('server');
});

it('a burst of initializes counts before the sessions are registered', () => {
  const { chats } = registry(10, 2);
  opened(chats, 'burst');
  opened(chats, 'burst');
  expect(chats.legacy(key('burst'))).toBe('key');
});
