// Test helper: plain HTTP calls to a running mock service, over real loopback sockets with Node's fetch, and checks of its answers.

import { expect } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';

export interface CallOptions {
  query?: Record<string, string>;
  form?: Record<string, string>;
  /** The key to send; null sends no Authorization header at all. Defaults to the server's key. */
  key?: string | null;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is empty. */
  body: unknown;
}

/** Calls `path` (relative to the base URL, e.g. "/reports") on `server`. */
export async function call(server: MockServer, method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const url = new URL(`${server.baseUrl}${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const key = options.key === undefined ? server.apiKey : options.key;
  if (key !== null) headers['Authorization'] = `Bearer ${key}`;
  let body: string | undefined;
  if (options.form !== undefined) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

export interface ReportBody {
  id: number;
  url: string;
  project: string;
  result: string;
  score: number;
  privacy: number;
  generated_at: string;
  created_at: string;
  updated_at: string;
}

export interface PageBody<T> {
  data: T[];
  links: { first: string; last?: string; prev: string | null; next: string | null };
  meta: { current_page: number; from: number | null; last_page?: number; path: string; per_page: number; to: number | null; total?: number };
}

/** The answer is a 422 rejecting one field, as Laravel words it: `message` is that field's only error. */
export function expectFieldRejected(answer: CallResult, field: string, message: string): void {
  expect(answer.status).toBe(422);
  expect(answer.body).toEqual({ message, errors: { [field]: [message] } });
}

/** Narrows a JSON body to the shape a test expects; the assertions that follow check the content. */
export function as<T>(body: unknown): T {
  return body as T;
}

/** A seeded source of randomness, so fault tests are repeatable. */
export { seededRandom } from '../helpers/random.js';
