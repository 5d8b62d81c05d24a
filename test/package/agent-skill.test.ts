/**
 * The agent skill (skills/roam-companion/SKILL.md) names only tools the server has, teaches the
 * navigation and undo tools, and carries the front matter agents read to decide when to load it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tools } from '../../src-mcp/server/tool-catalogue.ts';
import { ROOT } from '../harness/mcp-bin.ts';

const SKILLS = path.join(ROOT, 'skills');

describe('agent skill', () => {
  it('is the only skill, in a folder named as its front matter says', async () => {
    expect(await readdir(SKILLS)).toEqual(['roam-companion']);
    const text = await readFile(path.join(SKILLS, 'roam-companion', 'SKILL.md'), 'utf8');
    const front = /^---\nname: (?<name>[a-z0-9-]+)\ndescription: (?<description>.+)\n---\n/.exec(text);
    expect(front?.groups?.name).toBe('roam-companion');
    expect((front?.groups?.description ?? '').length).toBeGreaterThan(50);
    expect((front?.groups?.description ?? '').length).toBeLessThanOrEqual(1024);
  });

  it('names only tools the catalogue has, among them navigation and undo', async () => {
    const text = await readFile(path.join(SKILLS, 'roam-companion', 'SKILL.md'), 'utf8');
    // Tool names are snake_case in backticks; arguments (parentUid, nextOffset) are camelCase.
    const named = [...new Set([...text.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((match) => match[1]!))];
    const known = new Set<string>(tools.map((tool) => tool.name));
    expect(named.filter((name) => !known.has(name))).toEqual([]);
    expect(named).toEqual(
      expect.arrayContaining([
        'select_graph',
        'get_neighbors',
        'find_path',
        'resolve_pages',
        'list_changes',
        'undo_changes',
        'update_block',
        'create_block',
      ]),
    );
  });
});
