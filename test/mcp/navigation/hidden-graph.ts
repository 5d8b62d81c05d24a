/**
 * A graph with blocks hidden from AI: both tags, both forms
 * (`#.rm-hide`, `[[.rm-private]]`, `#[[.rm-hide]]`), nested children, a page linked only from
 * hidden blocks and a page linked from hidden and visible blocks.
 */
import type { PageSpec } from '../../emulator/index.ts';

/** Every string and uid below marked SECRET must never reach the agent through our own tools. */
export const SECRET_UIDS = ['hid-root1', 'hid-child1', 'hid-grand1', 'hid-root2', 'hid-child2', 'hid-root3'];
export const SECRET_TEXT = 'SECRET';

export const HIDDEN_GRAPH: PageSpec[] = [
  {
    title: 'Journal',
    uid: 'journal',
    children: [
      'Met [[Public Topic]] people today',
      {
        string: 'SECRET plans for [[Hidden Project]] #.rm-hide',
        uid: 'hid-root1',
        children: [
          {
            string: 'SECRET detail about [[Shared Topic]] and [[Deep Secret]]',
            uid: 'hid-child1',
            children: [{ string: 'SECRET grandchild on [[Deep Secret]]', uid: 'hid-grand1' }],
          },
        ],
      },
      {
        string: 'SECRET diary [[.rm-private]]',
        uid: 'hid-root2',
        children: [{ string: 'SECRET mention of [[Hidden Project]] #roam/templates', uid: 'hid-child2' }],
      },
      'Also visible: [[Shared Topic]]',
    ],
  },
  {
    title: 'Notes',
    uid: 'notes',
    children: [
      { string: 'SECRET top block #[[.rm-hide]] on [[Deep Secret]]', uid: 'hid-root3' },
      'Visible note on [[Shared Topic]]',
    ],
  },
  {
    title: 'Templates',
    uid: 'templates',
    children: [
      {
        string: 'Meeting #roam/templates',
        uid: 'tpl-meeting',
        children: [
          'Agenda',
          { string: 'SECRET salary talk #.rm-hide', children: ['SECRET numbers'] },
          'Actions',
        ],
      },
    ],
  },
  { title: 'Public Topic', uid: 'public', children: ['About the public topic'] },
  { title: 'Shared Topic', uid: 'shared', children: ['About the shared topic'] },
  { title: 'Hidden Project', uid: 'hproject', children: ['A page only hidden blocks link to'] },
];
