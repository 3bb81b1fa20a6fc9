// A hostile service on loopback (over raw-server.ts): escape sequences in messages, field names and records, echoed secrets, deep JSON, huge streamed bodies, big ids, unlisted statuses.
import type { ServerResponse } from 'node:http';
import { sendJson, sendText, startRawServer, type RawServer, type SeenRequest } from './raw-server.js';

/** What a terminal must never receive raw from a service: each drives the terminal or reorders what it shows. */
export const TERMINAL_ATTACKS = {
  clearScreen: '\u001b[2J\u001b[H',
  windowTitle: '\u001b]0;pwned\u0007',
  clipboard: '\u001b]52;c;ZWNobyBwd25lZA==\u0007',
  hyperlink: '\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\',
  csi8bit: '\u009b31m',
  bell: '\u0007',
  rightToLeft: 'gnp.\u202eexe',
  isolate: '\u2066x\u2069',
  newline: 'first\nsecond',
} as const;

/** Every attack in one string. */
export const ALL_ATTACKS = Object.values(TERMINAL_ATTACKS).join('|');

/** Raw characters whose presence on a screen means the service reached the terminal. */
export const RAW_CONTROLS = /[\u0007\u001b\u009b\u202e\u2066\u2069]/;

/** An id beyond 2^53: as a double it would read ...992. */
export const BIG_ID = '9007199254740993';

/** A report whose every text field attacks the terminal. */
export function hostileReport(id: number | string = 7): Record<string, unknown> {
  return {
    id,
    url: `https://example.com/${TERMINAL_ATTACKS.clearScreen}${TERMINAL_ATTACKS.hyperlink}`,
    project: `${TERMINAL_ATTACKS.rightToLeft}${TERMINAL_ATTACKS.windowTitle}`,
    result: `bad${TERMINAL_ATTACKS.clipboard}`,
    score: 12,
    privacy: 0,
    generated_at: '2026-11-20T09:14:03.000000Z',
    [`note${TERMINAL_ATTACKS.csi8bit}`]: TERMINAL_ATTACKS.isolate,
  };
}

/** What the server answers: JSON, raw text, JSON nested `depth` levels, or a body of `bytes` streamed without ever being held. */
export type HostileAnswer =
  | { json: unknown; status?: number; headers?: Record<string, string> }
  | { text: string; status?: number; contentType?: string }
  | { depth: number; status?: number }
  | { bytes: number; declareLength: boolean; status?: number };

export interface HostileServer extends RawServer {
  /** The base URL to give rsapi (…/api/v1). */
  baseUrl: string;
  /** Bytes of huge bodies actually written to sockets, over the server's life. */
  hugeBytesSent(): number;
}

/** Starts a loopback server whose every answer `answer` chooses from the request. */
export async function startHostileServer(answer: (request: SeenRequest, index: number) => HostileAnswer): Promise<HostileServer> {
  let sent = 0;
  const server = await startRawServer((request, response, index) => {
    const reply = answer(request, index);
    if ('json' in reply) return sendJson(response, reply.status ?? 200, reply.json, reply.headers);
    if ('text' in reply) return sendText(response, reply.status ?? 200, reply.text, reply.contentType ?? 'application/json');
    if ('depth' in reply) return sendText(response, reply.status ?? 200, deepJson(reply.depth), 'application/json');
    return streamHuge(response, reply.bytes, reply.declareLength, reply.status ?? 200, (n) => (sent += n));
  });
  return { ...server, baseUrl: `${server.url}/api/v1`, hugeBytesSent: () => sent };
}

/** `{"data":[[[...]]]}` nested `depth` levels: valid JSON that recursion would choke on. */
export function deepJson(depth: number): string {
  return `{"data":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

/**
 * Writes `bytes` of a JSON-looking body in 64 KiB chunks, honouring backpressure, and stops as soon as the
 * client goes away: the body is never built in memory.
 */
function streamHuge(response: ServerResponse, bytes: number, declareLength: boolean, status: number, count: (n: number) => void): void {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (declareLength) headers['Content-Length'] = String(bytes);
  response.writeHead(status, headers);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  chunk.write('{"data":"');
  const filler = Buffer.alloc(64 * 1024, 0x61);
  let left = bytes;
  let first = true;
  let closed = false;
  response.on('close', () => (closed = true));
  const pump = () => {
    while (!closed && left > 0) {
      const piece = (first ? chunk : filler).subarray(0, Math.min(left, 64 * 1024));
      first = false;
      left -= piece.length;
      count(piece.length);
      if (!response.write(piece)) return void response.once('drain', pump);
    }
    if (!closed) response.end();
  };
  pump();
}
