/**
 * The agent skill over MCP: skills/roam-companion/SKILL.md (the shipped file, embedded by
 * scripts/build.mjs) as the resource `skill://roam-companion/SKILL.md` for every client, and through
 * the Skills extension (`io.modelcontextprotocol/skills`, SEP-2640): `skills/list` and `skills/get`
 * answer its entry (verbatim frontmatter, the file's SHA-256 digest and size).
 */
import { createHash } from 'node:crypto';
import { embeddedSkill } from '../apps/embedded.ts';
import type { FixedResource } from '../contract/tool-definition.ts';

export const SKILL_URI = 'skill://roam-companion/SKILL.md';

/**
 * The frontmatter as written: `key: value` lines between the `---` fences (ours has only plain
 * scalars; a value is kept as the text after the first `: `).
 */
export function frontmatterOf(text: string): Record<string, string> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  const fields: Record<string, string> = {};
  for (const line of match?.[1]?.split(/\r?\n/) ?? []) {
    const at = line.indexOf(': ');
    if (at > 0) fields[line.slice(0, at).trim()] = line.slice(at + 2).trim();
  }
  return fields;
}

export function skillEntry() {
  const text = embeddedSkill();
  const bytes = Buffer.from(text, 'utf8');
  return {
    uri: SKILL_URI,
    frontmatter: frontmatterOf(text),
    resources: [
      {
        uri: SKILL_URI,
        digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
        size: bytes.length,
      },
    ],
  };
}

export const skillResource: FixedResource = {
  uri: SKILL_URI,
  name: 'roam-companion',
  title: 'Roam Companion skill',
  description: 'How to work in a Roam graph with these tools: orientation, reads, writes, undo.',
  mimeType: 'text/markdown',
  text: () => embeddedSkill(),
};
