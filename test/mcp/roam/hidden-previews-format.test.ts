/**
 * The preview redaction on the shapes a Roam build may write that the emulator does not: an older
 * build's preview whose text is not the block's raw text (brackets balanced or not), a newer
 * build's preview with an escaped `</ref>` inside, and answers that carry no reference (no query).
 */
import { expect, it } from 'vitest';
import { HIDDEN_PREVIEW, withoutHiddenPreviews } from '../../../src-mcp/roam/hidden-blocks.ts';

const REDACTED = `((hid))<ref>${HIDDEN_PREVIEW}</ref>`;

function redact(answer: unknown, hidden: Record<string, string> = { hid: 'raw secret' }) {
  const queried: unknown[][] = [];
  const result = withoutHiddenPreviews(answer, async (_datalog, inputs) => {
    queried.push(inputs);
    const asked = inputs[0] as string[];
    return Object.entries(hidden).filter(([uid]) => asked.includes(uid));
  });
  return { result, queried };
}

it('an older preview whose rendered text differs from the raw one goes whole, to its balancing bracket', async () => {
  const { result } = redact({
    markdown: '- see [rendered __secret__ [[Page]] text](((hid))) and [alias](((vis))) <roam uid="a"/>',
  });
  expect(await result).toEqual({
    markdown: `- see ${REDACTED} and [alias](((vis))) <roam uid="a"/>`,
  });
});

it('an older preview with unbalanced brackets is cut from the start of its line rather than leak', async () => {
  const { result } = redact('first line\n- see [a ] secret](((hid))) after');
  expect(await result).toBe(`first line\n${REDACTED} after`);
});

it('a newer preview with an escaped </ref> inside goes whole; another uid’s preview stays', async () => {
  const { result } = redact(['x ((hid))<ref>secret <\\/ref> still secret</ref> y ((vis))<ref>visible</ref>']);
  expect(await result).toEqual([`x ${REDACTED} y ((vis))<ref>visible</ref>`]);
});

it('an answer without a block reference is returned as it is, without a query', async () => {
  const answer = { markdown: '- plain [[Page]] text' };
  const { result, queried } = redact(answer);
  expect(await result).toBe(answer);
  expect(queried).toEqual([]);
});
