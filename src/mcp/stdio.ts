// The server's stdio transport: one JSON-RPC message a line each way, each line admitted or answered (admission.ts);
// a line over MAX_MESSAGE_BYTES is answered with an error and skipped unread. (The SDK's transport closed the server
// on such a line, losing the calls in flight, and left lines it could not read unanswered.)
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { admitLine, errorAnswer } from './admission.js';

/** The largest message read (the SDK's limit too): a client's message is a call's arguments, far below it. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** How much of an oversized line's start and end is kept to find its request's id. */
const EDGE_BYTES = 512;

export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private readonly lines: LineReader;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    maxBytes = MAX_MESSAGE_BYTES,
  ) {
    this.lines = new LineReader(maxBytes);
  }

  private readonly ondata = (chunk: Buffer | string) => {
    for (const line of this.lines.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) this.take(line);
  };

  // A last line without its newline is still a message.
  private readonly onend = () => {
    for (const line of this.lines.end()) this.take(line);
  };

  private readonly onstdinerror = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    this.stdin.on('data', this.ondata);
    this.stdin.on('end', this.onend);
    this.stdin.on('error', this.onstdinerror);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.stdout.write(`${JSON.stringify(message)}\n`)) return;
    await new Promise((resolve) => this.stdout.once('drain', resolve));
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.ondata);
    this.stdin.off('end', this.onend);
    this.stdin.off('error', this.onstdinerror);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.onclose?.();
  }

  private take(line: Line): void {
    if ('bytes' in line) {
      const message = `invalid request: a message of ${line.bytes} bytes is over the limit of ${this.lines.maxBytes} bytes; it was not read`;
      void this.send(errorAnswer(line.id, ErrorCode.InvalidRequest, message));
      return;
    }
    if (line.text.trim() === '') return;
    const admitted = admitLine(line.text);
    if ('message' in admitted) this.onmessage?.(admitted.message);
    else if ('answer' in admitted) void this.send(admitted.answer);
    else this.onerror?.(new Error(admitted.dropped));
  }
}

/** A line read whole, or one over the limit: its size, and its request's id when its start or end shows it. */
type Line = { text: string } | { bytes: number; id: RequestId | undefined };

/** Splits a byte stream into lines, holding at most `maxBytes` of one line: beyond that only its two ends. */
export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  private over: { head: Buffer; tail: Buffer } | undefined;

  constructor(readonly maxBytes: number) {}

  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      this.add(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) break;
      lines.push(this.finish());
      start = newline + 1;
    }
    return lines;
  }

  end(): Line[] {
    return this.size > 0 ? [this.finish()] : [];
  }

  private add(piece: Buffer): void {
    if (piece.length === 0) return;
    this.size += piece.length;
    if (this.over) {
      this.over.tail = lastBytes(Buffer.concat([this.over.tail, piece]));
    } else if (this.size > this.maxBytes) {
      const whole = Buffer.concat([...this.parts, piece]);
      this.over = { head: whole.subarray(0, EDGE_BYTES), tail: lastBytes(whole) };
      this.parts = [];
    } else {
      this.parts.push(piece);
    }
  }

  private finish(): Line {
    const line: Line = this.over
      ? { bytes: this.size, id: idAtEdges(this.over.head.toString('utf8'), this.over.tail.toString('utf8')) }
      : { text: Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '') };
    this.parts = [];
    this.size = 0;
    this.over = undefined;
    return line;
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= EDGE_BYTES ? buffer : Buffer.from(buffer.subarray(buffer.length - EDGE_BYTES));
}

const ID = String.raw`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `{"jsonrpc":"2.0","method":"tools/call","id":5,...`: the id among the short fields a message may start with. */
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*){0,2}${ID}\s*[,}]`);
/** `...,"jsonrpc":"2.0","id":5}` (as the SDK's clients write): the id as the object's last field, at the top level. */
const ID_AT_END = new RegExp(String.raw`[,{]\s*${ID}\s*\}\s*\r?$`);

/** The id of an oversized request, when its first or last field shows it: the client's call is then answered. */
function idAtEdges(head: string, tail: string): RequestId | undefined {
  const found = ID_AT_START.exec(head)?.[1] ?? ID_AT_END.exec(tail)?.[1];
  if (found === undefined) return undefined;
  const id: unknown = JSON.parse(found);
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as RequestId) : undefined;
}
