import type { AccessLevel } from '../../../src-shared/roam-config.ts';

/** Access levels in plain words: what an AI agent may do with the graph. */
export const accessLevelText: Record<AccessLevel, { label: string; explanation: string }> = {
  'read-only': {
    label: 'Read only',
    explanation: 'Agents can search and read this graph. They cannot change anything.',
  },
  'read-append': {
    label: 'Read + append',
    explanation: 'Agents can read and add new pages and blocks, but never edit or delete what is there.',
  },
  'read-edit-own': {
    label: 'Own edits only',
    explanation: 'Agents can read and add anywhere, and change or delete only what agents created.',
  },
  full: {
    label: 'Full',
    explanation: 'Agents can read, add, edit, move and delete pages and blocks.',
  },
};
