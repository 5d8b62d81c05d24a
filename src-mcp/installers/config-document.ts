/**
 * Reads and edits a client's config text (JSON, or VS Code's JSONC) touching only our entry:
 * every other server, setting, comment, indentation and line ending stays as it was.
 */
// The package's UMD main can't be bundled by esbuild (its requires hide behind a factory).
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { InstallerError } from './installer-error.ts';
import { SERVER_KEY } from './installer-options.ts';
import { removeNestedProperty, setNestedProperty } from './json-text-edit.ts';
import { isPlainObject } from '../../src-shared/plain-object.ts';
import { parseTomlConfig, tomlWithServerEntry } from './toml-config.ts';

/** `toml`: Codex's config.toml, where our entry is the table `[<serversKey>.roam-companion]`. */
export type ConfigSyntax = 'json' | 'jsonc' | 'toml';

/** A parsed config: its top-level object and the server map (undefined when absent). */
export interface ConfigDocument {
  /** The file it was read from, for messages. */
  file: string;
  text: string;
  root: Record<string, unknown>;
  servers: Record<string, unknown> | undefined;
  syntax: ConfigSyntax;
  /** TOML: the whole file as a full TOML parser reads it, to check an edit changed nothing else. */
  strict?: Record<string, unknown>;
}

const BOM = '\uFEFF';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

const readableError: Record<string, string> = {
  InvalidSymbol: 'an unexpected character',
  InvalidCommentToken: 'a comment, which plain JSON does not allow',
  CommaExpected: 'a missing comma',
  ColonExpected: 'a missing colon',
  ValueExpected: 'a missing value (or a trailing comma)',
  PropertyNameExpected: 'a missing property name (or a trailing comma)',
  CloseBraceExpected: 'a missing }',
  CloseBracketExpected: 'a missing ]',
  EndOfFileExpected: 'text after the end of the JSON value',
  UnexpectedEndOfString: 'an unterminated string',
};

function unparseable(file: string, text: string, error: ParseError): InstallerError {
  const { line, column } = lineAndColumn(text, error.offset);
  const code = printParseErrorCode(error.error);
  return new InstallerError(
    'CONFIG_INVALID',
    `${file} is not valid JSON: ${readableError[code] ?? code} at line ${line}, column ${column}. ` +
      'Fix the file (or move it aside) and try again; Roam Companion leaves it untouched until then.',
  );
}

/**
 * Parses a config file's text, refusing (with the file and position) anything the client itself
 * couldn't read: comments in plain-JSON files, a top level or server map that isn't an object.
 * An empty file counts as `{}`.
 */
export function parseConfig(
  file: string,
  text: string,
  syntax: ConfigSyntax,
  serversKey: string,
): ConfigDocument {
  if (syntax === 'toml') return { file, ...parseTomlConfig(file, text, serversKey, SERVER_KEY), syntax };
  const body = text.startsWith(BOM) ? text.slice(BOM.length) : text;
  const errors: ParseError[] = [];
  const root: unknown = parse(body, errors, {
    disallowComments: syntax === 'json',
    allowTrailingComma: syntax === 'jsonc',
    allowEmptyContent: true,
  });
  const first = errors[0];
  if (first) throw unparseable(file, body, first);
  if (syntax === 'json' && body.trim() !== '') {
    try {
      JSON.parse(body);
    } catch {
      // JSON.parse's message quotes the file's text, which may hold secrets: say only where.
      throw new InstallerError(
        'CONFIG_INVALID',
        `${file} is not valid JSON. ` +
          'Fix the file and try again; Roam Companion leaves it untouched until then.',
      );
    }
  }
  const top = body.trim() === '' ? {} : root;
  if (!isPlainObject(top)) {
    throw new InstallerError(
      'CONFIG_INVALID',
      `${file} holds ${describe(top)} at the top level, but it should be an object like {"${serversKey}": {...}}. ` +
        'Fix the file and try again; Roam Companion leaves it untouched until then.',
    );
  }
  const servers = top[serversKey];
  if (servers !== undefined && !isPlainObject(servers)) {
    throw new InstallerError(
      'CONFIG_INVALID',
      `In ${file}, "${serversKey}" is ${describe(servers)}, but it should be an object of servers. ` +
        'Fix the file and try again; Roam Companion leaves it untouched until then.',
    );
  }
  return { file, text, root: top, servers, syntax };
}

/**
 * The text with `servers[key]` set to `value` (or removed when `value` is undefined). Creates the
 * server map when missing; an emptied map stays as `{}`.
 */
export function withServerEntry(
  doc: ConfigDocument,
  serversKey: string,
  key: string,
  value: unknown,
): string {
  if (doc.syntax === 'toml') return tomlWithServerEntry(doc, serversKey, key, value);
  const bom = doc.text.startsWith(BOM) ? BOM : '';
  const body = doc.text.slice(bom.length);
  if (value === undefined) {
    return doc.servers?.[key] === undefined ? doc.text : bom + removeNestedProperty(body, serversKey, key);
  }
  // An empty file or a bare {} gets a readable layout rather than a one-line insertion.
  if (/^\s*(\{\s*\})?\s*$/.test(body))
    return `${bom}${JSON.stringify({ [serversKey]: { [key]: value } }, null, 2)}\n`;
  return bom + setNestedProperty(body, serversKey, key, value);
}
