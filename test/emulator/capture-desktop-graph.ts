/** A small graph for the capture and desktop tools: tasks for queries, blocks to comment on, a hidden subtree. */
import type { ExtensionToolSpec, PageSpec } from './types.ts';

export const HIDDEN_TEXT = 'secret salary figures';

export function captureDesktopGraph(): PageSpec[] {
  return [
    {
      title: 'Project Apollo',
      uid: 'apollo-pg',
      children: [
        { string: 'Write the launch plan #TODO', uid: 'task-open' },
        { string: 'Book the venue #TODO #DONE', uid: 'task-done' },
        {
          string: 'Budget #.rm-hide',
          uid: 'hide-root',
          children: [{ string: `${HIDDEN_TEXT} #TODO`, uid: 'hide-kid' }],
        },
        {
          string: 'Sprint',
          uid: 'sprint',
          children: [{ string: 'Review [[Ada Lovelace]] notes', uid: 'sprint-a' }],
        },
        { string: '{{query: {and: [[TODO]] {not: [[DONE]]}}}}', uid: 'query-blk' },
      ],
    },
    { title: 'Ada Lovelace', uid: 'ada-pg', children: [{ string: 'Mathematician', uid: 'ada-b1' }] },
    { title: 'Roam Research', uid: 'roam-pg' },
  ];
}

export const EXTENSION_TOOLS: ExtensionToolSpec[] = [
  {
    tool: 'word-count/count',
    extension: 'word-count',
    description: 'Counts the words of a page.',
    scope: 'read',
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' } },
      required: ['title'],
      additionalProperties: false,
    },
    result: { words: 42 },
  },
  { tool: 'tidy', description: 'Sorts the blocks of a page.', scope: 'edit', result: { sorted: 3 } },
  { tool: 'flaky/run', description: 'Always fails.', scope: 'read', fails: 'network unreachable' },
];
