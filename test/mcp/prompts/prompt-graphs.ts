/**
 * The hidden-blocks graph (test/mcp/navigation/hidden-graph.ts) plus a daily note and a page with
 * TODOs, visible and hidden, on the note and referencing it: what /daily-review reads.
 */
import type { PageSpec } from '../../emulator/index.ts';
import { HIDDEN_GRAPH, SECRET_UIDS } from '../navigation/hidden-graph.ts';

export const HIDDEN_DAY_TITLE = 'November 23rd, 2026';

export const HIDDEN_PROMPT_GRAPH: PageSpec[] = [
  ...HIDDEN_GRAPH,
  {
    title: HIDDEN_DAY_TITLE,
    daily: true,
    children: [
      { string: '{{[[TODO]]}} Visible task on [[Shared Topic]]', uid: 'day-todo' },
      { string: '{{[[TODO]]}} SECRET task on [[Hidden Project]] #.rm-hide', uid: 'hid-todo1' },
      {
        string: 'SECRET evening notes [[.rm-private]]',
        uid: 'hid-root4',
        children: [{ string: '{{[[TODO]]}} SECRET nested task', uid: 'hid-todo2' }],
      },
    ],
  },
  {
    title: 'Plans',
    uid: 'plans',
    children: [
      { string: `{{[[TODO]]}} Visible follow-up for [[${HIDDEN_DAY_TITLE}]]`, uid: 'plan-todo' },
      { string: `{{[[TODO]]}} SECRET follow-up for [[${HIDDEN_DAY_TITLE}]] #.rm-hide`, uid: 'hid-todo3' },
    ],
  },
];

export const HIDDEN_PROMPT_UIDS = [...SECRET_UIDS, 'hid-todo1', 'hid-root4', 'hid-todo2', 'hid-todo3'];
