// What a tool answers: compact JSON within the size budget (lists cut to fit, saying how to get the rest), or a tool
// error in the CLI's words (its one line and hint from src/cli/runtime/exit-codes.ts); never a secret of the invocation.
import { stringifyJson } from '../api/http/json.js';
import { RsapiError } from '../errors.js';
import { detailLines } from '../cli/runtime/exit-codes.js';
import type { Secrets } from '../cli/runtime/secrets.js';

/** No tool result is larger than this, as JSON (the budget: 64 KB). */
export const MAX_RESULT_BYTES = 64 * 1024;
/** What a result's text may take, as a JSON string (its quotes escaped), leaving room for the JSON-RPC envelope around it. */
export const MAX_TEXT_BYTES = MAX_RESULT_BYTES - 1024;

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

/** A value as the tool's answer: one text block of compact JSON. `isError` for a run that failed in part (a bulk write). */
export function valueResult(value: unknown, secrets: Secrets, options: { isError?: boolean } = {}): ToolResult {
  const text = secrets.redact(stringifyJson(value));
  return { content: [{ type: 'text', text }], ...(options.isError ? { isError: true } : {}) };
}

/**
 * A failure as a tool error: `rsapi: ` and the message, then its field lines and hint, as the CLI prints them on
 * stderr. A line that echoes a huge argument (a 100 KB project name in a refused request's path) is cut: an error
 * answer keeps to the budget as any answer does.
 */
export function errorResult(error: unknown, secrets: Secrets): ToolResult {
  const lines = errorLines(error).map((line) => cutValue(secrets.redact(line), MAX_ERROR_LINE) as string);
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: true };
}

/** An error line longer than this is cut (cutValue): the few lines of an error stay far below the budget. */
const MAX_ERROR_LINE = 2_000;

/** The lines the CLI prints for an error: `rsapi: ` and its message, then its field lines and hint (exit-codes.ts). */
export function errorLines(error: unknown): string[] {
  return error instanceof RsapiError
    ? [`rsapi: ${error.message}`, ...detailLines(error)]
    : [`rsapi: unexpected error: ${error instanceof Error ? error.message : String(error)}`];
}

/** The size of a value as a result's text once in the result: its compact JSON, as a JSON string (every quote escaped). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(stringifyJson(value)));
}

/**
 * The most of `items` (in order) whose answer, as `shape` makes it of them, fits the budget; `shape` is told how many
 * were left out, to say how to get them. Binary search: each try serialises the answer once.
 */
export function fitted<T>(items: readonly T[], shape: (kept: readonly T[], left: number) => unknown, budget = MAX_TEXT_BYTES): unknown {
  const whole = shape(items, 0);
  if (jsonBytes(whole) <= budget) return whole;
  let low = 0;
  let high = items.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (jsonBytes(shape(items.slice(0, middle), items.length - middle)) <= budget) low = middle;
    else high = middle - 1;
  }
  return shape(items.slice(0, low), items.length - low);
}

/**
 * A value cut to about `max` characters: as sent when short enough; a long string, its start and a mark; anything
 * else, the start of its JSON and a mark.
 */
export function cutValue(value: unknown, max: number): unknown {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value.length <= max ? value : `${value.slice(0, max)}… (cut: ${value.length} characters in all)`;
  const text = stringifyJson(value) ?? 'null';
  if (text.length <= max) return value;
  return `${text.slice(0, max)}… (cut: ${text.length} characters in all)`;
}
