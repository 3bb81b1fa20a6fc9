// Reading an incoming request of the mock service: its body, form fields, query and headers as plain records.

import type { IncomingMessage } from 'node:http';
import type { Input } from './validation.js';

/** Bodies past this size are cut off; no endpoint of the service takes more than a URL and a password. */
const MAX_BODY_BYTES = 1_000_000;

/** The whole request body as text, or undefined when the client went away before sending it. */
export async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      size += buffer.length;
      if (size <= MAX_BODY_BYTES) chunks.push(buffer);
    }
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  return undefined;
}

/** A JSON object body, read the way Laravel merges JSON input: top-level scalars only. */
function parseJsonFields(body: string): Input {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const fields: Input = {};
    for (const [name, value] of Object.entries(parsed)) {
      const text = scalarText(value);
      if (text !== undefined) fields[name] = text;
    }
    return fields;
  } catch {
    return {};
  }
}

/** The body's fields: form-urlencoded (what clients are told to send) or a JSON object; anything else has none. */
export function parseFormFields(contentType: string | undefined, body: string): Input {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(body));
  if (mediaType === 'application/json') return parseJsonFields(body);
  return {};
}

/** Splits a raw request target into its path (as received) and its parsed query (last value wins, as in PHP). */
export function splitTarget(target: string): { path: string; query: Input } {
  const questionMark = target.indexOf('?');
  if (questionMark === -1) return { path: target, query: {} };
  return {
    path: target.slice(0, questionMark),
    query: Object.fromEntries(new URLSearchParams(target.slice(questionMark + 1))),
  };
}

export function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
