/**
 * A hand-written graph whose answers can be checked by reading this file. Links (page → page,
 * blocks referencing):
 *
 *   Machine Learning → Neural Networks (2), Statistics, Linear Algebra, draft
 *   Neural Networks  → Linear Algebra, Type, Model, draft        (Type:: is an attribute ref)
 *   Linear Algebra   → Machine Learning                          (a cycle with ML)
 *   Statistics       → idea, draft, Probability
 *   Probability      → (only itself: self-references are not links)
 *   Cooking ⇄ Recipes, both → food                               (a separate component)
 *   Island                                                       (isolated)
 *
 * 13 pages, 15 blocks, 16 links, 17 references.
 */
import type { PageSpec } from '../../emulator/index.ts';

export const KNOWLEDGE_GRAPH: PageSpec[] = [
  {
    title: 'Machine Learning',
    uid: 'ml',
    children: [
      { string: 'Basics of [[Neural Networks]]', uid: 'ml-1', children: ['Nested detail'] },
      { string: 'Relies on #Statistics and [[Linear Algebra]]', uid: 'ml-2' },
      { string: 'More [[Neural Networks]] reading', uid: 'ml-3' },
      { string: '#draft outline', uid: 'ml-4' },
    ],
  },
  {
    title: 'Neural Networks',
    uid: 'nn',
    children: ['Built on [[Linear Algebra]]', 'Type:: [[Model]]', { string: '#draft', uid: 'nn-3' }],
  },
  { title: 'Linear Algebra', uid: 'la', children: ['Used by [[Machine Learning]]'] },
  {
    title: 'Statistics',
    uid: 'st',
    children: [{ string: '#idea #draft link it to [[Probability]]', uid: 'st-1' }],
  },
  { title: 'Probability', uid: 'pr', children: ['Plain words.', '[[Probability]] refers to itself'] },
  { title: 'Cooking', uid: 'ck', children: ['See [[Recipes]] #food'] },
  { title: 'Recipes', uid: 'rc', children: ['Back to [[Cooking]] #food'] },
  { title: 'Island', uid: 'is', children: ['Nobody links here.'] },
  { title: 'idea', uid: 'idea' },
  { title: 'draft', uid: 'draft' },
  { title: 'food', uid: 'food' },
  { title: 'Type', uid: 'type' },
  { title: 'Model', uid: 'model' },
];

/** The links above as "from → to" strings, for checking that a path only uses real links. */
export const KNOWLEDGE_LINKS = new Set([
  'Machine Learning → Neural Networks',
  'Machine Learning → Statistics',
  'Machine Learning → Linear Algebra',
  'Machine Learning → draft',
  'Neural Networks → Linear Algebra',
  'Neural Networks → Type',
  'Neural Networks → Model',
  'Neural Networks → draft',
  'Linear Algebra → Machine Learning',
  'Statistics → idea',
  'Statistics → draft',
  'Statistics → Probability',
  'Cooking → Recipes',
  'Cooking → food',
  'Recipes → Cooking',
  'Recipes → food',
]);
