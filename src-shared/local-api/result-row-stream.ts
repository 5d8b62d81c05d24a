/**
 * Reads the rows of a Local API answer `{"success":true,"result":[[..],[..],..]}` as they arrive,
 * so a large `data.q` answer never exists as one string or one parsed tree (docs/navigation.md,
 * "The link index"). Any other answer (an error, a non-array result, other key order) is kept
 * whole and handed back for the ordinary JSON path.
 */

const HEAD = '{"success":true,"result":[';
const [QUOTE, BACKSLASH, COMMA, OPEN, CLOSE, BRACE_OPEN, BRACE_CLOSE, MINUS, ZERO, NINE] = [
  0x22, 0x5c, 0x2c, 0x5b, 0x5d, 0x7b, 0x7d, 0x2d, 0x30, 0x39,
];
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** A row handed to the callback; the array may be reused once the callback returns. */
export type ResultRow = readonly unknown[];

export type RowStreamEnd =
  | { streamed: true; rows: number }
  /** The answer was not a success envelope with an array result: parse `raw` the ordinary way. */
  | { streamed: false; raw: Buffer };

export class MalformedRowsError extends Error {
  constructor(detail: string) {
    super(`The Local API's answer is not valid JSON (${detail}).`);
    this.name = 'MalformedRowsError';
  }
}

export class ResultRowStream {
  private mode: 'head' | 'rows' | 'tail' | 'whole' = 'head';
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** Bytes of a row cut by a chunk boundary. */
  private carry: Buffer | undefined;
  private tail: Buffer[] = [];
  private count = 0;
  /** Between rows: what may come next (`[` after the opening or a comma, `,` or `]` after a row). */
  private between: 'first' | 'row' | 'comma' = 'first';
  private readonly numbers: number[] = [];

  constructor(private readonly onRow: (row: ResultRow) => void) {}

  push(chunk: Buffer): void {
    if (this.mode === 'whole') this.hold(chunk);
    else if (this.mode === 'head') this.readHead(chunk);
    else if (this.mode === 'rows') this.readRows(chunk);
    else this.tail.push(chunk);
  }

  end(): RowStreamEnd {
    if (this.mode === 'head' || this.mode === 'whole')
      return { streamed: false, raw: Buffer.concat(this.held, this.heldBytes) };
    if (this.mode === 'rows') throw new MalformedRowsError('it ends inside the result');
    const rest = Buffer.concat(this.tail).toString('utf8').trim();
    if (!rest.endsWith('}')) throw new MalformedRowsError('the envelope is not closed');
    if (rest.startsWith(','))
      JSON.parse(`{${rest.slice(1)}`); // other keys after result: must be JSON
    else if (rest !== '}') throw new MalformedRowsError('unexpected text after the result');
    return { streamed: true, rows: this.count };
  }

  private hold(chunk: Buffer): void {
    this.held.push(chunk);
    this.heldBytes += chunk.length;
  }

  /** Compares the first non-blank characters with HEAD; the rows start right after it. */
  private readHead(chunk: Buffer): void {
    this.hold(chunk);
    const all = Buffer.concat(this.held, this.heldBytes);
    let matched = 0;
    for (let i = 0; i < all.length; i++) {
      const c = all[i]!;
      if (isSpace(c)) continue;
      if (c !== HEAD.charCodeAt(matched)) {
        this.mode = 'whole';
        return;
      }
      if (++matched === HEAD.length) {
        this.mode = 'rows';
        this.held = [];
        this.heldBytes = 0;
        this.readRows(all.subarray(i + 1));
        return;
      }
    }
  }

  /** Splits rows at depth 0; a row cut by the chunk's end waits in `carry` for the next chunk. */
  private readRows(chunk: Buffer): void {
    const buf = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = undefined;
    let depth = 0;
    let inString = false;
    let plain = true;
    let rowStart = -1;
    for (let i = 0; i < buf.length; i++) {
      const c = buf[i]!;
      if (inString) {
        if (c === BACKSLASH) i++;
        else if (c === QUOTE) inString = false;
        continue;
      }
      if (depth === 0) {
        if (isSpace(c)) continue;
        if (c === OPEN && this.between !== 'row') {
          // A row of integers ends at the next `]`: found natively, then read in one pass. Any
          // other row (a string, a nested value) is not integers and is split below.
          const close = buf.indexOf(CLOSE, i + 1);
          const row = close === -1 ? undefined : this.integers(buf, i, close + 1);
          if (row) {
            this.count++;
            this.onRow(row);
            this.between = 'row';
            i = close;
            continue;
          }
          depth = 1;
          rowStart = i;
          plain = true;
        } else if (c === CLOSE && this.between !== 'comma') {
          this.mode = 'tail';
          this.tail = [buf.subarray(i + 1)];
          return;
        } else if (c === COMMA && this.between === 'row') this.between = 'comma';
        else throw new MalformedRowsError('a result item is not a row');
        continue;
      }
      if (c === QUOTE) {
        inString = true;
        plain = false;
      } else if (c === OPEN || c === BRACE_OPEN) {
        depth++;
        plain = false;
      } else if (c === CLOSE || c === BRACE_CLOSE) {
        if (--depth === 0) {
          this.emit(buf, rowStart, i + 1, plain);
          this.between = 'row';
          rowStart = -1;
        }
      }
    }
    if (rowStart >= 0) this.carry = Buffer.from(buf.subarray(rowStart));
  }

  private emit(buf: Buffer, start: number, end: number, plain: boolean): void {
    const row = (plain && this.integers(buf, start, end)) || parseRow(buf, start, end);
    this.count++;
    this.onRow(row);
  }

  /** The common case, a row of integers (eids, counts, times), read without making a string. */
  private integers(buf: Buffer, start: number, end: number): number[] | undefined {
    const row = this.numbers;
    // Written by index and cut to size at the end: rows of one width never resize the array.
    let count = 0;
    let value = 0;
    let digits = 0;
    let negative = false;
    let closed = false; // blank after the digits: the number is complete
    for (let i = start + 1; i < end; i++) {
      const c = buf[i]!;
      if (c >= ZERO && c <= NINE) {
        if (closed || (digits === 1 && value === 0)) return undefined; // "1 2", "01": not ours to judge
        value = value * 10 + (c - ZERO);
        digits++;
      } else if (c === MINUS && digits === 0 && !negative) negative = true;
      else if (c === COMMA || c === CLOSE) {
        if (digits === 0) {
          if (c !== CLOSE || count !== 0 || negative) return undefined;
          row.length = 0;
          return row;
        }
        if (!Number.isSafeInteger(value)) return undefined;
        row[count++] = negative ? -value : value;
        value = 0;
        digits = 0;
        negative = false;
        closed = false;
      } else if (isSpace(c)) {
        if (negative && digits === 0) return undefined;
        if (digits > 0) closed = true;
      } else return undefined; // null, true, a fraction: the general path
    }
    if (row.length !== count) row.length = count;
    return row;
  }
}

function parseRow(buf: Buffer, start: number, end: number): unknown[] {
  let row: unknown;
  try {
    row = JSON.parse(buf.toString('utf8', start, end));
  } catch {
    throw new MalformedRowsError('a row cannot be parsed');
  }
  if (!Array.isArray(row)) throw new MalformedRowsError('a result item is not a row');
  return row;
}
