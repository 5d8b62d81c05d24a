/**
 * Which IP addresses file_upload may fetch from (docs/reliability.md, Uploads): public unicast
 * only. Everything in IANA's special-purpose registries is refused: loopback, private (RFC 1918,
 * ULA), link-local, unspecified, multicast, CGNAT, broadcast, documentation, benchmarking and
 * reserved ranges. IPv6 must be global unicast (2000::/3); an IPv4 address carried inside IPv6
 * (IPv4-mapped, IPv4-translated, NAT64, 6to4) is judged as that IPv4 address.
 *
 * Addresses are normalised by the WHATWG URL parser first, so every spelling of one address
 * (decimal, hex, octal, short `127.1`, IPv6 with or without an embedded dotted quad) gets one answer.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

const blockedV4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['192.175.48.0', 24], // AS112 direct delegation
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];

/** Inside 2000::/3 but not public. */
const blockedV6: Array<[string, number]> = [
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID, ...)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
];

const v4List = new BlockList();
for (const [network, prefix] of blockedV4) v4List.addSubnet(network, prefix, 'ipv4');
const v6List = new BlockList();
for (const [network, prefix] of blockedV6) v6List.addSubnet(network, prefix, 'ipv6');

/** The URL parser's canonical form of a host (brackets kept for IPv6), or undefined. */
function canonicalHost(host: string): string | undefined {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
}

/** An IP address as the URL parser writes it (`[...]` dropped), or undefined if it is not one. */
export function canonicalAddress(address: string): string | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv6(bare)) {
    const canonical = canonicalHost(`[${bare}]`);
    return canonical?.slice(1, -1);
  }
  const canonical = canonicalHost(bare);
  return canonical && isIPv4(canonical) ? canonical : undefined;
}

/** The 16 bytes of a canonical IPv6 address (no embedded dotted quad: the URL parser removed it). */
function ipv6Bytes(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const words = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

const dotted = (bytes: number[]) => bytes.join('.');
const allZero = (bytes: number[]) => bytes.every((b) => b === 0);
const startsWith = (bytes: number[], prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/** The IPv4 address an IPv6 address carries and stands for, if it is one of those forms. */
function embeddedIPv4(bytes: number[]): string | undefined {
  const last4 = dotted(bytes.slice(12));
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated)
  if (allZero(bytes.slice(0, 10)) && bytes[10] === 0xff && bytes[11] === 0xff) return last4;
  if (allZero(bytes.slice(0, 8)) && startsWith(bytes.slice(8), [0xff, 0xff, 0, 0])) return last4;
  // 64:ff9b::a.b.c.d (NAT64, RFC 6052)
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b]) && allZero(bytes.slice(4, 12))) return last4;
  // 2002:aabb:ccdd::/48 (6to4)
  if (startsWith(bytes, [0x20, 0x02])) return dotted(bytes.slice(2, 6));
  return undefined;
}

function isPublicIPv4(address: string): boolean {
  return !v4List.check(address, 'ipv4');
}

function isPublicIPv6(address: string): boolean {
  const bytes = ipv6Bytes(address);
  const carried = embeddedIPv4(bytes);
  if (carried !== undefined) return isPublicIPv4(carried);
  // Global unicast is 2000::/3; everything else (::, ::1, ::a.b.c.d, ULA, link-local,
  // site-local, multicast, discard-only, local NAT64, ...) is not the public internet.
  if (((bytes[0] as number) & 0xe0) !== 0x20) return false;
  return !v6List.check(address, 'ipv6');
}

/** True only for a public unicast address; anything that does not parse as an address is false. */
export function isPublicAddress(address: string): boolean {
  const canonical = canonicalAddress(address);
  if (canonical === undefined) return false;
  return isIPv4(canonical) ? isPublicIPv4(canonical) : isPublicIPv6(canonical);
}
