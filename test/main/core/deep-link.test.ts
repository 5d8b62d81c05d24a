/**
 * roam-companion:// deep links, which any web page can send: parsing never throws, whatever the
 * text; a link built from any graph name gives that graph back; hostile links (bad
 * percent-encoding, control characters, other hosts and schemes, huge) are ignored with a reason.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deepLinkInArgv,
  graphIdFromDeepLink,
  loggableLink,
  parseDeepLink,
} from '../../../src-main/core/deep-link.ts';

const PREFIX = 'roam-companion://graph/';
const hasControl = (text: string) =>
  [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

describe('deep links', () => {
  it('never throw, whatever follows the scheme', () => {
    const tail = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc
        .array(
          fc.constantFrom(
            '%',
            '%2',
            '%zz',
            '%E0%A4%A',
            '%ff',
            '/',
            'hosted',
            'offline',
            '..',
            '?',
            '#',
            '%00',
            '\u0000',
          ),
          {
            maxLength: 12,
          },
        )
        .map((parts) => parts.join('')),
    );
    const link = fc.oneof(
      tail.map((t) => `${PREFIX}hosted/${t}`),
      tail.map((t) => `${PREFIX}${t}`),
      tail.map((t) => `roam-companion://${t}`),
      tail,
    );
    fc.assert(
      fc.property(link, (url) => {
        const parsed = parseDeepLink(url);
        expect('graphId' in parsed || 'ignored' in parsed).toBe(true);
        expect(hasControl(loggableLink(url))).toBe(false);
      }),
      { numRuns: 1500 },
    );
  });

  it('give back the graph a link was made for', () => {
    const name = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
      .filter((n) => n.trim() !== '' && !hasControl(n) && n !== '.' && n !== '..');
    fc.assert(
      fc.property(fc.constantFrom('hosted', 'offline'), name, (type, graphName) => {
        expect(graphIdFromDeepLink(`${PREFIX}${type}/${encodeURIComponent(graphName)}`)).toBe(
          `${type}:${graphName}`,
        );
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['roam-companion://graph/hosted/%', /percent-encoding/],
    ['roam-companion://graph/hosted/%E0%A4%A', /percent-encoding/],
    ['roam-companion://graph/hosted/a%00b', /no usable graph name/],
    ['roam-companion://graph/hosted/%20%20', /no usable graph name/],
    ['roam-companion://graph/other/work', /unknown graph type/],
    ['roam-companion://settings/hosted/work', /not a graph link/],
    ['https://graph/hosted/work', /not a roam-companion/],
    ['not a url', /not a URL/],
    [`${PREFIX}hosted/${'a'.repeat(5000)}`, /longer than/],
  ])('%s is ignored', (url, reason) => {
    expect(parseDeepLink(url)).toEqual({ ignored: expect.stringMatching(reason) });
  });

  it('finds a link among launch arguments, and nothing else', () => {
    expect(deepLinkInArgv(['electron', '.', '--flag', `${PREFIX}hosted/work`])).toBe(`${PREFIX}hosted/work`);
    expect(deepLinkInArgv(['electron', '.', 'https://x'])).toBeUndefined();
    expect(deepLinkInArgv([undefined, 3, null])).toBeUndefined();
  });
});
