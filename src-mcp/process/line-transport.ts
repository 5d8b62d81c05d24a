/**
 * MCP over stdio, one JSON-RPC message per line, with our own line limit (docs/reliability.md,
 * Limits). The SDK's StdioServerTransport closes the connection when a line passes its 10 MB
 * buffer, which is smaller than a file_upload of 10 MB in base64 (~13.4 MB): here a line may be
 * up to MAX_LINE_BYTES, and a longer one is skipped without being held in memory and answered
 * with a JSON-RPC error, while the connection (selection, tickets, everything) keeps serving.
 *
 * Chunks are kept as a list and joined once per line (no copy per chunk). A line that is not JSON
 * is ignored, as the SDK does.
 */
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import {
  deserializeMessage,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import { requestIdOfCutLine } from './oversized-line.ts';

/** 10 MB of file as base64 (13,981,016 bytes) plus room for the request around it. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** How much of an oversized line's start and end is kept, to find its request id. */
const KEPT_BYTES = 1024;
/** JSON-RPC "Invalid Request". */
const INVALID_REQUEST = -32600;

interface Skipped {
  head: Buffer;
  tail: Buffer;
  bytes: number;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  private skipped: Skipped | undefined;
  private closed = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
    this.stdout.on('error', this.onStdoutError);
  }

  private readonly onData = (chunk: Buffer) => {
    for (let start = 0; ;) {
      const newline = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  };

  private readonly onStreamError = (error: Error) => this.onerror?.(error);
  private readonly onEnd = () => void this.close();
  private readonly onStdoutError = (error: Error) => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close();
  };

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipped) {
      this.keepTail(piece);
      return;
    }
    if (this.size + piece.length <= this.maxLineBytes) {
      this.chunks.push(piece);
      this.size += piece.length;
      return;
    }
    const sofar = Buffer.concat([...this.chunks, piece]);
    this.skipped = { head: Buffer.from(sofar.subarray(0, KEPT_BYTES)), tail: Buffer.alloc(0), bytes: 0 };
    this.keepTail(sofar);
    this.chunks = [];
    this.size = 0;
  }

  private keepTail(piece: Buffer): void {
    const skipped = this.skipped as Skipped;
    skipped.bytes += piece.length;
    const joined = Buffer.concat([skipped.tail, piece.subarray(-KEPT_BYTES)]);
    skipped.tail = Buffer.from(joined.subarray(-KEPT_BYTES));
  }

  private endLine(): void {
    const skipped = this.skipped;
    if (skipped) {
      this.skipped = undefined;
      this.refuse(skipped);
      return;
    }
    const line = Buffer.concat(this.chunks, this.size).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      if (!(error instanceof SyntaxError)) this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  /** Answers an oversized line: with its request's id when one can be read off its ends. */
  private refuse(skipped: Skipped): void {
    const id = requestIdOfCutLine(skipped.head.toString('utf8'), skipped.tail.toString('utf8'));
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    const message =
      `The message is ${mb(skipped.bytes)} MB; roam-mcp reads messages up to ${mb(this.maxLineBytes)} MB ` +
      '(a file_upload of up to 10 MB as base64 fits). Send less per call, or give file_upload a filePath or url instead of base64.';
    const error = {
      code: INVALID_REQUEST,
      message,
      data: { bytes: skipped.bytes, maxBytes: this.maxLineBytes },
    };
    this.onerror?.(new Error(message));
    // Without a readable id the error goes out without one (MCP's schema allows that; JSON-RPC's null).
    const answer =
      id === undefined ? { jsonrpc: '2.0' as const, error } : { jsonrpc: '2.0' as const, id, error };
    void this.send(answer as JSONRPCMessage).catch((e: Error) => this.onerror?.(e));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.skipped = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The stdio connection is closed.'));
    return new Promise((resolve, reject) => {
      this.stdout.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }
}
