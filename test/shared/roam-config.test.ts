import { describe, expect, it } from 'vitest';
import { findGraph, graphEntrySchema, validateGraphs } from '../../src-shared/roam-config.ts';

const token = 'roam-graph-local-token-R8KP2tPuxcUflAo_7tkc5lOPgo7ki';
const entry = (raw: Record<string, unknown>) => graphEntrySchema.parse(raw);

describe('validateGraphs', () => {
  it('defaults type to hosted and nickname to the name', () => {
    const { graphs, errors } = validateGraphs([entry({ name: 'work-2024', token })]);
    expect(errors).toEqual([]);
    expect(graphs).toEqual([{ name: 'work-2024', type: 'hosted', nickname: 'work-2024', token }]);
  });

  it('keeps the hosted graph when an offline one has the same name, with a warning', () => {
    const { graphs, warnings } = validateGraphs([
      entry({ name: 'notes', type: 'offline', nickname: 'Offline' }),
      entry({ name: 'notes', nickname: 'Hosted' }),
    ]);
    expect(graphs.map((g) => g.nickname)).toEqual(['Hosted']);
    expect(warnings[0]).toMatch(/both as hosted and as offline/);
  });

  it('names both graphs when nicknames clash case-insensitively', () => {
    const { errors } = validateGraphs([
      entry({ name: 'a', nickname: 'Work' }),
      entry({ name: 'b', nickname: 'work' }),
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("graph 'a'");
    expect(errors[0]).toContain("graph 'b'");
  });

  it('treats Unicode variants of a label as one: full-width, case, NFC/NFD, invisible characters', () => {
    const clash = (a: string, b: string) =>
      validateGraphs([entry({ name: 'a', nickname: a }), entry({ name: 'b', nickname: b })]).errors;
    expect(clash('Work', 'Ｗork')[0]).toMatch(
      /'Ｗork' \(graph 'b'\) clashes with 'Work', already the nickname of graph 'a'/,
    );
    expect(clash('Caf\u00E9', 'Cafe\u0301')).toHaveLength(1);
    expect(clash('Straße', 'STRASSE')).toHaveLength(1);
    expect(clash('Work', 'Cafe')).toEqual([]);
    // A graph name is a label too, and an invisible character in it is shown, not hidden.
    const named = validateGraphs([
      entry({ name: 'a', nickname: 'Work' }),
      entry({ name: 'Wo\u200Brk', nickname: 'Other' }),
    ]).errors;
    expect(named[0]).toMatch(
      /^The name of graph 'Wo<U\+200B>rk' clashes with 'Work', already the nickname of graph 'a'/,
    );
  });

  it('refuses invisible characters and mixed alphabets in nicknames (and in names used as nicknames)', () => {
    const errorsOf = (raw: Record<string, unknown>) => validateGraphs([entry(raw)]).errors;
    expect(errorsOf({ name: 'a', nickname: 'Wo\u200Brk' })[0]).toBe(
      "Graph 'a': the nickname 'Wo<U+200B>rk' contains an invisible or control character (U+200B), so it cannot be told apart from one without it. Retype it, or give the graph another nickname.",
    );
    expect(errorsOf({ name: 'Wo\u202Erk' })[0]).toMatch(/name \(used as its nickname\).*U\+202E/);
    expect(errorsOf({ name: 'a', nickname: 'W\u043Erk' })[0]).toMatch(/mixes Latin and Cyrillic letters/);
    // One alphabet, with digits, other scripts or emoji, is fine.
    for (const nickname of ['Работа', 'Ελληνικά 2', '仕事 Work', '👩‍💻 Dev', 'Café ❤️'])
      expect(errorsOf({ name: 'a', nickname })).toEqual([]);
  });

  it("a nickname equal to another graph's name is an error naming both graphs", () => {
    const { errors, graphs } = validateGraphs([
      entry({ name: 'work2', nickname: 'Work' }),
      entry({ name: 'personal', nickname: 'WORK2' }),
    ]);
    expect(errors).toEqual([
      expect.stringMatching(
        /^Nickname 'WORK2' \(graph 'personal'\) clashes with 'work2', already the name of graph 'work2'/,
      ),
    ]);
    expect(graphs.map((g) => g.name)).toEqual(['work2']);
  });

  it('explains a remote token without repeating it', () => {
    const remote = 'roam-graph-token-SECRETSECRETSECRET';
    const { errors } = validateGraphs([entry({ name: 'a', token: remote })]);
    expect(errors[0]).toMatch(/remote API token/);
    expect(errors.join()).not.toContain(remote);
  });

  it('leaves disabled graphs out', () => {
    const { graphs } = validateGraphs([entry({ name: 'a', disabled: true }), entry({ name: 'b' })]);
    expect(graphs.map((g) => g.name)).toEqual(['b']);
  });
});

describe('findGraph', () => {
  const graphs = [
    { name: 'jfb-work-notes-2024', nickname: 'Work' },
    { name: 'personal', nickname: 'Home' },
  ];
  it('matches nicknames case-insensitively, then names', () => {
    expect(findGraph(graphs, 'work')?.name).toBe('jfb-work-notes-2024');
    expect(findGraph(graphs, 'ＷＯＲＫ')?.name).toBe('jfb-work-notes-2024');
    expect(findGraph(graphs, 'Ho\u200Bme')?.name).toBe('personal');
    expect(findGraph(graphs, ' ')).toBeUndefined();
    expect(findGraph(graphs, 'personal')?.nickname).toBe('Home');
    expect(findGraph(graphs, 'nope')).toBeUndefined();
  });
});
