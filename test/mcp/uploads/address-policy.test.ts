/**
 * Which hosts file_upload may fetch from: every spelling of an address gets the answer the
 * reference model (IANA's special-purpose registries, test/mcp/uploads/address-spellings.ts) gives the
 * address itself, for random IPv4 and IPv6 addresses, the non-public ranges sampled on purpose.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../../src-mcp/uploads/address-policy.ts';
import {
  anyV4,
  anyV6,
  dottedOf,
  modelPublicV4,
  modelPublicV6,
  nonPublicV4,
  v4Spellings,
  v6Spellings,
} from './address-spellings.ts';

/** The host as a URL names it: what fetchPublic judges. */
const hostOf = (spelling: string) => new URL(`http://${spelling}:8080/x`).hostname;

describe('the public-address policy', () => {
  it('refuses every spelling of a non-public IPv4 address (decimal, hex, octal, short, mapped, NAT64, 6to4)', () => {
    fc.assert(
      fc.property(
        nonPublicV4.chain((n) => fc.tuple(fc.constant(n), v4Spellings(n))),
        ([n, spelling]) => {
          expect(isPublicAddress(hostOf(spelling)), `${spelling} (${dottedOf(n)})`).toBe(false);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('answers for any IPv4 address, in any spelling, what the model answers for the address', () => {
    fc.assert(
      fc.property(
        anyV4.chain((n) => fc.tuple(fc.constant(n), v4Spellings(n))),
        ([n, spelling]) => {
          expect(isPublicAddress(hostOf(spelling)), `${spelling} (${dottedOf(n)})`).toBe(modelPublicV4(n));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('answers for any IPv6 address, in any spelling, what the model answers', () => {
    const interesting = fc.oneof(
      anyV6,
      // The prefixes where the rules live, with random rest.
      fc
        .tuple(
          fc.constantFrom(
            [0, 0],
            [0x64, 0xff9b],
            [0x2002, -1],
            [0x2001, 0x0db8],
            [0x2001, -1],
            [0xfe80, 0],
            [0xfc00, -1],
            [0xff02, 0],
            [0x3fff, -1],
            [0x2606, 0x4700],
          ),
          anyV6,
        )
        .map(([[a, b], rest]) => [a, b === -1 ? (rest[1] as number) : b, ...rest.slice(2)] as number[]),
      anyV4.map((n) => [0, 0, 0, 0, 0, 0xffff, n >>> 16, n & 0xffff]),
      anyV4.map((n) => [0, 0, 0, 0, 0, 0, n >>> 16, n & 0xffff]),
    );
    fc.assert(
      fc.property(
        interesting.chain((g) => fc.tuple(fc.constant(g), v6Spellings(g))),
        ([groups, spelling]) => {
          expect(isPublicAddress(hostOf(spelling)), spelling).toBe(modelPublicV6(groups));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['127.0.0.1', false],
    ['2130706433', false],
    ['0x7f000001', false],
    ['017700000001', false],
    ['127.1', false],
    ['0', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['255.255.255.255', false],
    ['[::]', false],
    ['[::1]', false],
    ['[::127.0.0.1]', false],
    ['[fe80::1]', false],
    ['[fd00:ec2::254]', false],
    ['[ff02::1]', false],
    ['[2001:db8::1]', false],
    ['[2001::1]', false],
    ['93.184.215.14', true],
    ['[2606:4700:4700::1111]', true],
    ['[2002:5db8:d70e::1]', true],
    ['[64:ff9b::8.8.8.8]', true],
  ])('%s is public: %s', (spelling, expected) => {
    expect(isPublicAddress(hostOf(spelling))).toBe(expected);
  });

  it('refuses what is not an address at all (names, zone ids, garbage)', () => {
    for (const text of [
      'localhost',
      'example.com',
      'fe80::1%eth0',
      '',
      '[::1',
      '1.2.3.4.5',
      '::ffff:999.0.0.1',
    ])
      expect(isPublicAddress(text), text).toBe(false);
  });
});
