/**
 * Hand-written sample graphs whose navigation answers can be checked by hand: projects, people,
 * daily notes with links and tags, attributes, templates, agent guidelines, block references and
 * a link cycle (Project Apollo ↔ Project Hermes). Uids are fixed so tests can name them.
 */
import type { PageSpec } from './types.ts';

/** The work graph ("demo-work" in the demo). */
export function demoGraphContent(): PageSpec[] {
  return [
    {
      title: 'Project Apollo',
      uid: 'apollo-pg',
      sidebar: 0,
      children: [
        { string: 'status:: in progress', uid: 'apollo-st' },
        { string: 'owner:: [[Ada Lovelace]]', uid: 'apollo-ow' },
        {
          string: 'Goals',
          uid: 'apollo-gl',
          heading: 2,
          children: [
            { string: 'Ship the [[Roam Companion]] beta by [[December 1st, 2026]]', uid: 'apollo-g1' },
            { string: 'Reuse the sync engine from [[Project Hermes]]', uid: 'apollo-g2' },
          ],
        },
        {
          string: 'Decisions',
          uid: 'apollo-dc',
          children: [
            {
              string: 'Use the Local API instead of scraping the UI #decision',
              uid: 'apollo-d1',
              children: [{ string: 'Reason: tokens give a ^^clear security boundary^^', uid: 'apollo-d2' }],
            },
          ],
        },
      ],
    },
    {
      title: 'Project Hermes',
      uid: 'hermes-pg',
      children: [
        { string: 'status:: done', uid: 'hermes-st' },
        { string: 'owner:: [[Grace Hopper]]', uid: 'hermes-ow' },
        { string: 'Sync engine that [[Project Apollo]] builds on', uid: 'hermes-sy' },
        { string: 'Lesson: measure before optimising #important', uid: 'hermes-ls' },
      ],
    },
    {
      title: 'Roam Companion',
      uid: 'compan-pg',
      children: [
        { string: 'A tray app and MCP server for [[Roam Research]]', uid: 'compan-b1' },
        { string: 'Part of [[Project Apollo]]; see ((apollo-d1))', uid: 'compan-b2' },
      ],
    },
    {
      title: 'Ada Lovelace',
      uid: 'ada-pg',
      children: [
        { string: 'role:: engineering lead', uid: 'ada-role' },
        { string: 'Works with [[Grace Hopper]] on [[Project Apollo]]', uid: 'ada-works' },
      ],
    },
    {
      title: 'Grace Hopper',
      uid: 'grace-pg',
      children: [
        { string: 'role:: architect', uid: 'grace-rol' },
        { string: 'Led [[Project Hermes]] #important', uid: 'grace-led' },
      ],
    },
    {
      title: 'Alan Turing',
      uid: 'alan-pg',
      children: [{ string: 'role:: advisor', uid: 'alan-role' }],
    },
    {
      title: 'November 20th, 2026',
      daily: true,
      children: [
        { string: 'Kick-off for [[Project Apollo]] with [[Ada Lovelace]] #meeting', uid: 'nov20-b1' },
        { string: 'Read about #[[Local API]] tokens', uid: 'nov20-b2' },
      ],
    },
    {
      title: 'November 21st, 2026',
      daily: true,
      children: [
        {
          string: 'Call with [[Grace Hopper]] about [[Project Hermes]] #meeting',
          uid: 'nov21-b1',
          children: [{ string: 'She suggested reusing the sync engine ((hermes-sy))', uid: 'nov21-b2' }],
        },
      ],
    },
    {
      title: 'November 22nd, 2026',
      daily: true,
      children: [
        { string: '{{[[TODO]]}} Review the [[Roam Companion]] demo #todo', uid: 'nov22-b1' },
        { string: 'Asked [[Alan Turing]] for feedback on [[Project Apollo]]', uid: 'nov22-b2' },
      ],
    },
    {
      title: 'Templates',
      uid: 'templ-pg',
      children: [
        {
          string: 'Meeting Notes #[[roam/templates]]',
          uid: 'templ-mtg',
          children: [
            { string: 'Attendees::', uid: 'templ-m1' },
            { string: 'Agenda::', uid: 'templ-m2' },
            { string: 'Notes::', uid: 'templ-m3' },
          ],
        },
        {
          string: 'Weekly Review #[[roam/templates]]',
          uid: 'templ-wk',
          children: [
            { string: 'What went well?', uid: 'templ-w1' },
            { string: 'What to change next week?', uid: 'templ-w2' },
          ],
        },
      ],
    },
    {
      title: 'roam/agent guidelines',
      uid: 'agent-gd',
      children: [
        { string: 'Write dates as ISO dates (YYYY-MM-DD) in block text', uid: 'agent-g1' },
        { string: "Add new tasks to today's daily note as {{[[TODO]]}} blocks", uid: 'agent-g2' },
        { string: 'Link people by their page, e.g. [[Ada Lovelace]]', uid: 'agent-g3' },
      ],
    },
  ];
}

/** The personal graph (offered as an offline graph, "demo-personal", in the demo). */
export function demoPersonalGraphContent(): PageSpec[] {
  return [
    {
      title: 'Reading List',
      uid: 'read-list',
      children: [
        { string: '[[Thinking in Systems]] by [[Donella Meadows]] #reading', uid: 'read-b1' },
        { string: '[[How to Take Smart Notes]] #reading', uid: 'read-b2' },
      ],
    },
    {
      title: 'Thinking in Systems',
      uid: 'tis-pg',
      children: [
        { string: 'Stocks and flows explain most of what I see at work', uid: 'tis-b1' },
        { string: 'Compare with [[How to Take Smart Notes]]', uid: 'tis-b2' },
      ],
    },
    {
      title: 'November 22nd, 2026',
      daily: true,
      children: [{ string: 'Finished chapter 3 of [[Thinking in Systems]]', uid: 'p-nov22-1' }],
    },
  ];
}
