/**
 * Every prompt, in the order prompts/list shows them. A new prompt is one file in this folder
 * (src-mcp/prompts/prompt-definition.ts says how to declare it) and one line here. Loaded with
 * the tool catalogue, after the first answer (src-mcp/server/server.ts).
 */
import { backlinksPrompt } from './backlinks.ts';
import { dailyReviewPrompt } from './daily-review.ts';
import { graphPrompt } from './graph.ts';
import type { PromptDefinition } from './prompt-definition.ts';
import { relatedPrompt } from './related.ts';
import { reviewChangesPrompt } from './review-changes.ts';

export const prompts: readonly PromptDefinition[] = [
  backlinksPrompt,
  graphPrompt,
  relatedPrompt,
  dailyReviewPrompt,
  reviewChangesPrompt,
];
