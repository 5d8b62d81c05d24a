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
    expect(findGraph(graphs, 'personal')?.nickname).toBe('Home');
    expect(findGraph(graphs, 'nope')).toBeUndefined();
  });
});
