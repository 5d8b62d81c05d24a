/**
 * The request id of a line too long to parse, read off the ends kept of it: `"id"` as the first
 * member (after `jsonrpc`/`method`) at the start, or as the last member (before an optional
 * `jsonrpc`) at the end, where SDK clients put it. Only the top-level object's members can match
 * there, so an `id` inside `params` is never taken for the request's.
 */
import type { RequestId } from '@modelcontextprotocol/server';

const VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const HEAD = new RegExp(
  String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*${STRING}\s*,)*\s*"id"\s*:\s*${VALUE}\s*[,}]`,
);
const TAIL = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${VALUE}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`);

function idFrom(token: string | undefined): RequestId | undefined {
  if (token === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(token);
    if (typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))) return value;
  } catch {
    // not a JSON token after all
  }
  return undefined;
}

export function requestIdOfCutLine(head: string, tail: string): RequestId | undefined {
  return idFrom(HEAD.exec(head)?.[1]) ?? idFrom(TAIL.exec(tail)?.[1]);
}
