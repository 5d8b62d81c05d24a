/**
 * fast-check arbitraries for IP addresses and the many ways a URL can spell them, plus a reference
 * model of "public" written from IANA's special-purpose registries with plain bit arithmetic
 * (independent of the product's BlockList-based implementation).
 */
import fc from 'fast-check';

/** [first address as a 32-bit number, prefix length] of every IPv4 range that is not public. */
export const NON_PUBLIC_V4: Array<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const toNumber = (dotted: string) => dotted.split('.').reduce((n, part) => n * 256 + Number(part), 0);
const ranges = NON_PUBLIC_V4.map(([start, prefix]) => ({
  start: toNumber(start),
  size: 2 ** (32 - prefix),
}));

export function modelPublicV4(n: number): boolean {
  return !ranges.some((r) => n >= r.start && n < r.start + r.size);
}

export const bytesOf = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
export const dottedOf = (n: number) => bytesOf(n).join('.');

/** A 32-bit address inside one of the non-public ranges. */
export const nonPublicV4 = fc
  .constantFrom(...ranges)
  .chain((r) => fc.integer({ min: 0, max: r.size - 1 }).map((offset) => r.start + offset));

export const anyV4 = fc.integer({ min: 0, max: 2 ** 32 - 1 });

/** One number in decimal, octal (leading 0) or hex (0x, either case). */
const inBase = (value: number) =>
  fc.constantFrom('dec', 'oct', 'hex', 'HEX').map((base) => {
    if (base === 'dec') return String(value);
    if (base === 'oct') return `0${value.toString(8)}`;
    return base === 'hex' ? `0x${value.toString(16)}` : `0X${value.toString(16).toUpperCase()}`;
  });

const hex4 = (n: number) => n.toString(16);
const groupsOfV4 = (n: number) => `${hex4(n >>> 16)}:${hex4(n & 0xffff)}`;

/** Every IPv4 spelling the WHATWG URL parser reads as `n` (a host, brackets included for IPv6). */
export function v4Spellings(n: number): fc.Arbitrary<string> {
  const [a, b, c, d] = bytesOf(n) as [number, number, number, number];
  return fc.oneof(
    fc.constant(dottedOf(n)),
    fc.constant(`${dottedOf(n)}.`),
    inBase(n),
    fc.tuple(inBase(a), inBase(b), inBase(c), inBase(d)).map((p) => p.join('.')),
    fc.tuple(inBase(a), inBase(b), inBase((c << 8) | d)).map((p) => p.join('.')),
    fc.tuple(inBase(a), inBase(n & 0xffffff)).map((p) => p.join('.')),
    fc.constant(
      dottedOf(n)
        .split('')
        .map((ch) => `%${ch.charCodeAt(0).toString(16)}`)
        .join(''),
    ),
    fc.constant(dottedOf(n).replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)))),
    fc.constantFrom(
      `[::ffff:${dottedOf(n)}]`,
      `[::FFFF:${groupsOfV4(n).toUpperCase()}]`,
      `[0:0:0:0:0:ffff:${groupsOfV4(n)}]`,
      `[0000:0000:0000:0000:0000:ffff:${dottedOf(n)}]`,
      `[::ffff:0:${dottedOf(n)}]`,
      `[64:ff9b::${dottedOf(n)}]`,
      `[64:ff9b::${groupsOfV4(n)}]`,
      `[2002:${groupsOfV4(n)}::1]`,
      `[2002:${groupsOfV4(n)}:abcd:1:2:3:4]`,
    ),
  );
}

/** Eight random 16-bit groups. */
export const anyV6 = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 });

/** The model for an IPv6 address that carries no IPv4 address: global unicast minus special blocks. */
export function modelPublicV6(groups: number[]): boolean {
  const [g0 = 0, g1 = 0] = groups;
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const v4 = ((groups[6] ?? 0) * 0x10000 + (groups[7] ?? 0)) >>> 0;
  if (zero(0, 5) && groups[5] === 0xffff) return modelPublicV4(v4);
  if (zero(0, 4) && groups[4] === 0xffff && groups[5] === 0) return modelPublicV4(v4);
  if (g0 === 0x64 && g1 === 0xff9b && zero(2, 6)) return modelPublicV4(v4);
  if (g0 === 0x2002) return modelPublicV4(((g1 * 0x10000 + (groups[2] ?? 0)) >>> 0) as number);
  if ((g0 & 0xe000) !== 0x2000) return false;
  if (g0 === 0x2001 && g1 < 0x200) return false; // 2001::/23
  if (g0 === 0x2001 && g1 === 0xdb8) return false;
  if (g0 === 0x3fff && (g1 & 0xf000) === 0) return false; // 3fff::/20
  return true;
}

/** Spellings of one IPv6 address: full, zero-padded, upper case, `::`-compressed. */
export function v6Spellings(groups: number[]): fc.Arbitrary<string> {
  const full = groups.map((g) => g.toString(16));
  let best = { at: -1, length: 0 };
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { at: i, length: j - i };
  }
  const compressed =
    best.length > 1
      ? `${full.slice(0, best.at).join(':')}::${full.slice(best.at + best.length).join(':')}`
      : full.join(':');
  return fc.constantFrom(
    `[${full.join(':')}]`,
    `[${groups.map((g) => g.toString(16).padStart(4, '0')).join(':')}]`,
    `[${full.join(':').toUpperCase()}]`,
    `[${compressed}]`,
  );
}
