/** The Skills extension's identifier (SEP-2640); server.ts declares it, skill.ts serves it. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
