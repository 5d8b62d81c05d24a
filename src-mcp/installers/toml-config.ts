/**
 * Codex's `config.toml`, read and edited touching only our table: every other table, key, comment
 * and blank line stays byte for byte. Whether the file is TOML is smol-toml's to say (a full
 * TOML 1.0 parser, as strict as Codex's): a file it refuses is refused with the line and column
 * and left as it is. The scanner below finds where each table starts and ends in the person's
 * bytes (strings of all four kinds, multi-line arrays, inline tables, comments) and keeps values
 * as written. Our entry is edited only as the table Codex itself writes,
 * `[mcp_servers.roam-companion]` (with its sub-tables); an entry written another way (an inline
 * table, dotted keys) is refused rather than guessed at, and so is adding ours beside an
 * `mcp_servers = { ... }` inline table, which TOML does not allow.
 */
import { parse as parseStrictly, TomlError } from 'smol-toml';
import { InstallerError } from './installer-error.ts';
import { isPlainObject } from '../../src-shared/plain-object.ts';

/** A value kept as written (a number, a boolean, a date): it round-trips unchanged. */
export class TomlLiteral {
  constructor(readonly text: string) {}
  toJSON(): string {
    return this.text;
  }
}

type TomlValue = string | TomlLiteral | TomlValue[] | { [key: string]: TomlValue };

/** A table header as written: its key path, and where its line starts. */
interface Header {
  path: string[];
  start: number;
  array: boolean;
}

class TomlSyntaxError extends Error {
  constructor(
    readonly offset: number,
    what: string,
  ) {
    super(what);
  }
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;
const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };

/** A scanner over the whole text: one pass gives the tree, the headers and the dotted keys. */
class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  fail(what: string, at = this.pos): never {
    throw new TomlSyntaxError(at, what);
  }

  peek(n = 0): string {
    return this.text[this.pos + n] ?? '';
  }

  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  /** Spaces and tabs. */
  blanks(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }

  /** A comment up to the end of the line (not the line break). */
  comment(): void {
    if (this.peek() !== '#') return;
    while (this.pos < this.text.length && this.peek() !== '\n' && !this.startsWith('\r\n')) {
      const code = this.text.charCodeAt(this.pos);
      if ((code < 0x20 && code !== 0x09) || code === 0x7f) this.fail('a control character in a comment');
      this.pos++;
    }
  }

  /** The end of a line: optional blanks and comment, then a line break or the end of the text. */
  endOfLine(): void {
    this.blanks();
    this.comment();
    if (this.startsWith('\r\n')) this.pos += 2;
    else if (this.peek() === '\n') this.pos++;
    else if (this.pos < this.text.length) this.fail('text after a value (one key = value per line)');
  }

  /** Blanks, comments and line breaks (inside arrays). */
  gaps(): void {
    for (;;) {
      this.blanks();
      this.comment();
      if (this.startsWith('\r\n')) this.pos += 2;
      else if (this.peek() === '\n') this.pos++;
      else return;
    }
  }

  key(): string[] {
    const path: string[] = [];
    for (;;) {
      this.blanks();
      const c = this.peek();
      if (c === '"') path.push(this.basicString());
      else if (c === "'") path.push(this.literalString());
      else {
        const bare = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.pos))?.[0];
        if (!bare) this.fail('a missing or invalid key');
        path.push(bare);
        this.pos += bare.length;
      }
      this.blanks();
      if (this.peek() !== '.') return path;
      this.pos++;
    }
  }

  basicString(): string {
    if (this.startsWith('"""')) return this.multilineBasic();
    this.pos++;
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === '' || c === '\n' || c === '\r') this.fail('an unterminated string');
      this.pos++;
      if (c === '"') return out;
      if (c === '\\') out += this.escape();
      else {
        this.checkChar(c);
        out += c;
      }
    }
  }

  multilineBasic(): string {
    this.pos += 3;
    if (this.startsWith('\r\n')) this.pos += 2;
    else if (this.peek() === '\n') this.pos++;
    let out = '';
    for (;;) {
      if (this.pos >= this.text.length) this.fail('an unterminated """ string');
      if (this.startsWith('"""')) {
        // Up to two quotes may end the content right before the closing three.
        let quotes = 3;
        while (this.peek(quotes) === '"' && quotes < 5) quotes++;
        out += '"'.repeat(quotes - 3);
        this.pos += quotes;
        return out;
      }
      const c = this.peek();
      if (c === '\\') {
        // A line-ending backslash trims the break and the whitespace after it.
        const rest = /^\\[ \t]*\r?\n[\s]*/.exec(this.text.slice(this.pos));
        if (rest) {
          this.pos += rest[0].length;
          continue;
        }
        this.pos++;
        out += this.escape();
        continue;
      }
      this.pos++;
      if (c !== '\n' && c !== '\r') this.checkChar(c);
      out += c;
    }
  }

  escape(): string {
    const c = this.peek();
    this.pos++;
    if (Object.hasOwn(ESCAPES, c)) return ESCAPES[c]!;
    const width = c === 'u' ? 4 : c === 'U' ? 8 : 0;
    if (!width) this.fail('an unknown escape in a string', this.pos - 2);
    const hex = this.text.slice(this.pos, this.pos + width);
    if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== width) this.fail('a bad \\u escape in a string');
    this.pos += width;
    const code = parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) this.fail('a bad \\u escape in a string');
    return String.fromCodePoint(code);
  }

  checkChar(c: string): void {
    const code = c.charCodeAt(0);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f)
      this.fail('a control character in a string', this.pos - 1);
  }

  literalString(): string {
    if (this.startsWith("'''")) {
      this.pos += 3;
      if (this.startsWith('\r\n')) this.pos += 2;
      else if (this.peek() === '\n') this.pos++;
      const end = this.text.indexOf("'''", this.pos);
      if (end < 0) this.fail("an unterminated ''' string");
      let close = end + 3;
      while (this.text[close] === "'" && close < end + 5) close++;
      const out = this.text.slice(this.pos, close - 3);
      this.pos = close;
      return out;
    }
    this.pos++;
    const end = /['\n]/.exec(this.text.slice(this.pos));
    if (!end || end[0] !== "'") this.fail('an unterminated string');
    const out = this.text.slice(this.pos, this.pos + end.index);
    for (const c of out) if (c !== '\r') this.checkChar(c);
    this.pos += end.index + 1;
    return out;
  }

  value(): TomlValue {
    const c = this.peek();
    if (c === '"') return this.basicString();
    if (c === "'") return this.literalString();
    if (c === '[') return this.array();
    if (c === '{') return this.inlineTable();
    // Numbers, booleans, dates and times: kept as written (an offset date-time may hold one space).
    const scalar =
      /^(?:\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:[Zz]|[+-]\d\d:\d\d)?|[A-Za-z0-9_+\-.:]+)/.exec(
        this.text.slice(this.pos),
      )?.[0];
    if (!scalar) this.fail('a missing value');
    if (
      !/^(?:true|false|[+-]?(?:inf|nan)|[+-]?[0-9][0-9_]*(?:\.[0-9_]+)?(?:[eE][+-]?[0-9_]+)?|0x[0-9A-Fa-f_]+|0o[0-7_]+|0b[01_]+|\d{4}-\d\d-\d\d.*|\d\d:\d\d(?::\d\d(?:\.\d+)?)?)$/.test(
        scalar,
      )
    )
      this.fail(`an unknown value '${scalar.slice(0, 20)}' (strings need quotes)`);
    this.pos += scalar.length;
    return new TomlLiteral(scalar);
  }

  array(): TomlValue[] {
    this.pos++;
    const items: TomlValue[] = [];
    for (;;) {
      this.gaps();
      if (this.peek() === ']') {
        this.pos++;
        return items;
      }
      items.push(this.value());
      this.gaps();
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== ']') this.fail('a missing , or ] in an array');
    }
  }

  inlineTable(): Record<string, TomlValue> {
    this.pos++;
    const table: Record<string, TomlValue> = {};
    this.blanks();
    if (this.peek() === '}') {
      this.pos++;
      return table;
    }
    for (;;) {
      const path = this.key();
      if (this.peek() !== '=') this.fail('a missing = after a key');
      this.pos++;
      this.blanks();
      assign(table, path, this.value(), this, this.pos);
      this.blanks();
      if (this.peek() === ',') {
        this.pos++;
        continue;
      }
      if (this.peek() === '}') {
        this.pos++;
        return table;
      }
      this.fail('a missing , or } in an inline table');
    }
  }
}

function assign(
  table: Record<string, TomlValue>,
  path: string[],
  value: TomlValue,
  reader: Reader,
  at: number,
): void {
  let target = table;
  for (const part of path.slice(0, -1)) {
    const next = target[part] ?? (target[part] = {});
    if (!isPlainObject(next)) reader.fail(`the key '${path.join('.')}' is defined twice`, at);
    target = next as Record<string, TomlValue>;
  }
  const last = path.at(-1)!;
  if (Object.hasOwn(target, last)) reader.fail(`the key '${path.join('.')}' is defined twice`, at);
  target[last] = value;
}

/** The table a header opens, made on the way (an array-of-tables header appends a new one). */
function tableAt(root: Record<string, TomlValue>, header: Header, reader: Reader): Record<string, TomlValue> {
  let target = root;
  header.path.forEach((part, i) => {
    const last = i === header.path.length - 1;
    let next = target[part];
    if (last && header.array) {
      if (next === undefined) next = target[part] = [];
      if (!Array.isArray(next))
        reader.fail(`[[${header.path.join('.')}]] names a key that is not an array of tables`, header.start);
      const table = {};
      next.push(table);
      target = table;
      return;
    }
    if (next === undefined) next = target[part] = {};
    if (Array.isArray(next)) next = next.at(-1)!;
    if (!isPlainObject(next))
      reader.fail(`[${header.path.join('.')}] names a key that is not a table`, header.start);
    target = next as Record<string, TomlValue>;
  });
  return target;
}

interface ParsedToml {
  root: Record<string, TomlValue>;
  headers: Header[];
  /** Every key = value: its whole key path, the path of the table it is written in, where its line starts. */
  assignments: Array<{ path: string[]; table: string[]; start: number }>;
}

function read(text: string): ParsedToml {
  const reader = new Reader(text);
  const root: Record<string, TomlValue> = {};
  const headers: Header[] = [];
  const assignments: ParsedToml['assignments'] = [];
  let table = root;
  let tablePath: string[] = [];
  while (reader.pos < text.length) {
    const start = reader.pos;
    reader.blanks();
    const c = reader.peek();
    if (c === '#' || c === '\n' || c === '\r' || c === '') {
      reader.endOfLine();
      continue;
    }
    if (c === '[') {
      const array = reader.peek(1) === '[';
      reader.pos += array ? 2 : 1;
      const path = reader.key();
      if (!reader.startsWith(array ? ']]' : ']'))
        reader.fail(`a missing ${array ? ']]' : ']'} after a table name`);
      reader.pos += array ? 2 : 1;
      reader.endOfLine();
      const header = { path, start, array };
      headers.push(header);
      table = tableAt(root, header, reader);
      tablePath = path;
      continue;
    }
    const path = reader.key();
    if (reader.peek() !== '=') reader.fail('a missing = after a key');
    reader.pos++;
    reader.blanks();
    const at = reader.pos;
    assign(table, path, reader.value(), reader, at);
    assignments.push({ path: [...tablePath, ...path], table: tablePath, start });
    reader.endOfLine();
  }
  return { root, headers, assignments };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

const invalid = (file: string, why: string) =>
  new InstallerError(
    'CONFIG_INVALID',
    `${file} ${why} Fix the file (or move it aside) and try again; Roam Companion leaves it untouched until then.`,
  );

const samePath = (a: string[], b: string[]) => a.length === b.length && a.every((part, i) => part === b[i]);
const startsWithPath = (path: string[], prefix: string[]) => prefix.every((part, i) => path[i] === part);

/** Where our table is in the text: its header's line up to the next header that is not one of its sub-tables. */
function ourBlock(
  text: string,
  parsed: ParsedToml,
  ours: string[],
): { start: number; end: number } | undefined {
  const at = parsed.headers.findIndex((header) => !header.array && samePath(header.path, ours));
  if (at < 0) return undefined;
  const next = parsed.headers.slice(at + 1).find((header) => !startsWithPath(header.path, ours));
  let end = next?.start ?? text.length;
  // Blank and comment lines after our last key stay where they are (they may be about what follows).
  const lines = text.slice(parsed.headers[at]!.start, end).split(/(?<=\n)/);
  while (lines.length > 1 && /^[ \t]*(#[^\n]*)?\n?$/.test(lines.at(-1)!.replace(/\r\n$/, '\n'))) {
    end -= lines.pop()!.length;
  }
  return { start: parsed.headers[at]!.start, end };
}

/**
 * Parses `config.toml`, refusing (with the line and column) what Codex could not read either, and
 * an entry of ours written in a form we do not edit.
 */
export function parseTomlConfig(
  file: string,
  text: string,
  serversKey: string,
  key: string,
): {
  text: string;
  root: Record<string, unknown>;
  servers: Record<string, unknown> | undefined;
  strict: Record<string, unknown>;
} {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let strict: Record<string, unknown>;
  try {
    strict = parseStrictly(body, { integersAsBigInt: 'asNeeded' });
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // Its message goes on to quote the lines around the error, which may hold a secret: the first line only.
    const why = error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    throw invalid(
      file,
      `is not valid TOML (${why}) at line ${error.line}, column ${error.column}, so Codex cannot read it either.`,
    );
  }
  let parsed: ParsedToml;
  try {
    parsed = read(body);
  } catch (error) {
    if (!(error instanceof TomlSyntaxError)) throw error;
    const { line, column } = lineAndColumn(body, error.offset);
    throw invalid(
      file,
      `is written in a way Roam Companion cannot edit safely (${error.message}, line ${line}, column ${column}).`,
    );
  }
  const servers = parsed.root[serversKey];
  if (servers !== undefined && !isPlainObject(servers))
    throw invalid(file, `has "${serversKey}" as something other than a table of servers.`);
  const ours = [serversKey, key];
  // Ours is editable as one block: its header, then only its own sub-tables, every key inside them.
  const at = parsed.headers.findIndex((header) => samePath(header.path, ours));
  const run = at < 0 ? [] : parsed.headers.slice(at);
  const firstOther = run.findIndex((header) => !startsWithPath(header.path, ours));
  const inBlock = firstOther < 0 ? run : run.slice(0, firstOther);
  const editable =
    (at < 0 || !parsed.headers[at]!.array) &&
    parsed.headers.every((header) => !startsWithPath(header.path, ours) || inBlock.includes(header)) &&
    parsed.assignments.every((a) => !startsWithPath(a.path, ours) || startsWithPath(a.table, ours));
  if (!editable || (isPlainObject(servers) && servers[key] !== undefined && at < 0))
    throw invalid(
      file,
      `defines "${key}" in a form Roam Companion does not edit: it edits only its own [${ours.join('.')}] table ` +
        'and the sub-tables right under it.',
    );
  return {
    text,
    root: parsed.root as Record<string, unknown>,
    servers: servers as Record<string, unknown> | undefined,
    strict,
  };
}

/** Where `mcp_servers = { ... }` starts, when the server map is one inline table. */
function inlineServersAt(parsed: ParsedToml, serversKey: string): number | undefined {
  return parsed.assignments.find((a) => a.table.length === 0 && samePath(a.path, [serversKey]))?.start;
}

function tomlKey(key: string): string {
  return BARE_KEY.test(key) ? key : tomlString(key);
}

function tomlString(value: string): string {
  return JSON.stringify(value).replace(/\u007f/g, '\\u007f');
}

function tomlValue(value: unknown): string {
  if (value instanceof TomlLiteral) return value.text;
  if (typeof value === 'string') return tomlString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (isPlainObject(value))
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`)
      .join(', ')} }`;
  throw new Error(`A TOML value cannot be ${typeof value}.`);
}

/**
 * The text with our table set to `value` (replacing the old one where it was, or appended at the
 * end) or removed when `value` is undefined. Everything outside our table stays as it was.
 */
export function tomlWithServerEntry(
  doc: { text: string; file: string },
  serversKey: string,
  key: string,
  value: unknown,
): string {
  const bom = doc.text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = doc.text.slice(bom.length);
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const parsed = read(body);
  const block = ourBlock(body, parsed, [serversKey, key]);
  const inlineAt = inlineServersAt(parsed, serversKey);
  if (value !== undefined && !block && inlineAt !== undefined) {
    const { line } = lineAndColumn(body, inlineAt);
    throw new InstallerError(
      'CONFIG_INVALID',
      `${doc.file} writes all its servers as one inline table ("${serversKey} = { ... }", line ${line}), and TOML ` +
        `lets no other line add a server to it, so Codex could not read the file with Roam Companion's ` +
        `[${serversKey}.${key}] table added. Write each server as a table of its own instead — for a server ` +
        `"other": a line [${serversKey}.other] with its keys on the lines below — then run the install again. ` +
        'The file was left as it was.',
    );
  }
  if (value === undefined) {
    if (!block) return doc.text;
    let after = body.slice(block.end);
    let before = body.slice(0, block.start);
    // The blank line an install put before our table goes with it (none goes into a blank file).
    if (before.trim() !== '' && /(\r?\n){2}$/.test(before)) before = before.replace(/\r?\n$/, '');
    if (before === '') after = after.replace(/^(\r?\n)+/, '');
    return bom + before + after;
  }
  if (!isPlainObject(value)) throw new Error('A server entry must be a table.');
  const table =
    `[${tomlKey(serversKey)}.${tomlKey(key)}]${eol}` +
    Object.entries(value)
      .map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}${eol}`)
      .join('');
  if (block) {
    const rest = body.slice(block.end);
    return bom + body.slice(0, block.start) + table + (rest && !/^\r?\n/.test(rest) ? eol : '') + rest;
  }
  if (body.trim() === '') return bom + body + table;
  const ending = body.endsWith('\n') ? '' : eol;
  return bom + body + ending + eol + table;
}
