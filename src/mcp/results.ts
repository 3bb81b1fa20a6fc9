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
 * The result as sent, or, when its text (its local paths named, its secrets masked) is still over the budget, a tool
 * error that says so: no answer exceeds MAX_RESULT_BYTES, whatever a tool made.
 */
export function withinBudget(result: ToolResult, budget = MAX_TEXT_BYTES): ToolResult {
  const bytes = result.content.reduce((sum, block) => sum + Buffer.byteLength(JSON.stringify(block.text)), 0);
  if (bytes <= budget) return result;
  const text = `rsapi: the answer is ${bytes} bytes, over the limit of ${budget} bytes; ask for less (a narrower filter, a smaller limit)`;
  return { content: [{ type: 'text', text }], isError: true };
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
 * were left out, to say how to get them (fittedLists, with one list).
 */
export function fitted<T>(items: readonly T[], shape: (kept: readonly T[], left: number) => unknown, budget = MAX_TEXT_BYTES): unknown {
  return fittedLists({ items: { items, count: items.length } }, (kept, left) => shape(kept.items, left.items), budget);
}

/** A list of an answer: its items in order (read only as far as an answer could hold them), and how many it has. */
export interface AnswerList<T> {
  items: Iterable<T>;
  count: number;
}

type ItemsOf<Lists extends Record<string, AnswerList<unknown>>> = { [Name in keyof Lists]: Lists[Name] extends AnswerList<infer T> ? T[] : never };
type CountsOf<Lists extends Record<string, AnswerList<unknown>>> = { [Name in keyof Lists]: number };

/**
 * An answer holding several lists, each cut to the same number of items, the most that fits the budget (the lists
 * shorter than that whole); `shape` makes the answer of the items kept and is told how many of each list were left
 * out, to say so and how to get them. Only what could fit is ever read or serialised: a list's items are read until
 * they alone fill the budget, and each try of the search serialises an answer of about that size, never the whole
 * (a diff of two runs of 100,000 reports was 8 MB as JSON, serialised again at each try). An answer that does not fit
 * even with every list left out says so (tooLarge) instead.
 */
export function fittedLists<Lists extends Record<string, AnswerList<unknown>>>(
  lists: Lists,
  shape: (kept: ItemsOf<Lists>, left: CountsOf<Lists>) => unknown,
  budget = MAX_TEXT_BYTES,
): unknown {
  const starts = Object.entries(lists).map(([name, list]) => ({ name, count: list.count, start: startWithin(list.items, budget) }));
  const answerOf = (most: number) => {
    const kept = Object.fromEntries(starts.map(({ name, start }) => [name, start.slice(0, most)])) as ItemsOf<Lists>;
    const left = Object.fromEntries(starts.map(({ name, count, start }) => [name, count - Math.min(most, start.length)])) as CountsOf<Lists>;
    return shape(kept, left);
  };
  let low = 0;
  let high = Math.max(0, ...starts.map(({ start }) => start.length));
  const whole = answerOf(high);
  if (jsonBytes(whole) <= budget) return whole;
  const bare = answerOf(0);
  const bareBytes = jsonBytes(bare);
  if (bareBytes > budget) return tooLarge(bareBytes, bare, budget);
  high--;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (jsonBytes(answerOf(middle)) <= budget) low = middle;
    else high = middle - 1;
  }
  return answerOf(low);
}

/** The first items whose JSON alone fills `budget` (and one more): no answer within it holds more of them. */
function startWithin<T>(items: Iterable<T>, budget: number): T[] {
  const start: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (bytes > budget) break;
    start.push(item);
    // As in a result's text: the item's JSON, its quotes escaped, and a comma.
    bytes += jsonBytes(item) - 1;
  }
  return start;
}

/**
 * An answer too large for the budget with its lists left out (the rest of it alone is over): said, with the way to
 * the rest that its `more` gives, when that is short enough.
 */
function tooLarge(bytes: number, answer: unknown, budget: number): unknown {
  const more = typeof answer === 'object' && answer !== null && 'more' in answer ? (answer as { more: unknown }).more : undefined;
  return {
    too_large: `the answer is ${bytes} bytes even with every list left out, over the limit of ${budget} bytes`,
    ...(typeof more === 'string' && more.length <= MAX_NOTE_CHARS ? { more } : {}),
  };
}

/** The longest `more` a too-large answer keeps. */
const MAX_NOTE_CHARS = 2_000;

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
