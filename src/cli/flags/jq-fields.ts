// Whether a --jq expression reads a field no record of the output has: a cheap scan of its `.name` paths (no jq
// parser) against the output's keys, so `select(.score < 10)` over phpRank's records (no `score`) is said, not silent.
import { nearest } from '../../suggest.js';

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
/** A character a `.` after it is no field access of: a number's point (`1.5`), a name's part, `..`. */
const NOT_A_PATH_BEFORE = /[A-Za-z0-9_.]/;

/**
 * The field names an expression reads as `.name` (after `.`, `]`, `)`, `|` or a space alike), outside its string
 * literals (an interpolation `\(.url)` inside one is read) and its comments.
 */
export function fieldsRead(expression: string): string[] {
  const names = new Set<string>();
  // Per interpolation under way, the depth of parentheses at which it closes back into its string.
  const interpolations: number[] = [];
  let depth = 0;
  let inString = false;
  for (let index = 0; index < expression.length; index++) {
    const char = expression[index] as string;
    if (inString) {
      if (char === '\\' && expression[index + 1] === '(') {
        interpolations.push(depth);
        depth++;
        inString = false;
        index++;
      } else if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '#') {
      const end = expression.indexOf('\n', index);
      index = end === -1 ? expression.length : end;
    } else if (char === '"') inString = true;
    else if (char === '(') depth++;
    else if (char === ')') {
      depth--;
      if (interpolations.at(-1) === depth) {
        interpolations.pop();
        inString = true;
      }
    } else if (char === '.' && !NOT_A_PATH_BEFORE.test(expression[index - 1] ?? '') && expression[index + 1] !== '.') {
      // A path and the names chained on it (`.data.result`), each a field read.
      let at = index;
      while (expression[at] === '.') {
        NAME.lastIndex = at + 1;
        const name = NAME.exec(expression)?.[0];
        if (name === undefined) break;
        names.add(name);
        at += name.length + 1;
      }
      if (at > index) index = at - 1;
    }
  }
  return [...names];
}

/** Every key of every object in a JSON document or an ndjson stream, at any depth; undefined when none is JSON. */
export function keysOfOutput(output: string): { keys: Set<string>; objects: number } | undefined {
  const documents: unknown[] = [];
  try {
    documents.push(JSON.parse(output));
  } catch {
    for (const line of output.split('\n')) {
      if (line.trim() === '') continue;
      try {
        documents.push(JSON.parse(line));
      } catch {
        return undefined;
      }
    }
  }
  const keys = new Set<string>();
  let objects = 0;
  const pending = documents;
  while (pending.length > 0) {
    const value = pending.pop();
    // One at a time: an array of 150,000 records overflowed a spread into push.
    if (Array.isArray(value)) for (const item of value) pending.push(item);
    else if (value !== null && typeof value === 'object') {
      objects++;
      for (const [key, inner] of Object.entries(value)) {
        keys.add(key);
        if (inner !== null && typeof inner === 'object') pending.push(inner);
      }
    }
  }
  return { keys, objects };
}

/** Fields a table and csv take from the record model that json passes as sent (phpRank has no `score`). */
const MODEL_FIELDS = new Set(['score', 'label']);

/** The warning for an expression that reads fields the output has none of; undefined when it reads none such. */
export function missingFieldsWarning(expression: string, output: string): string | undefined {
  const read = fieldsRead(expression);
  if (read.length === 0) return undefined;
  const found = keysOfOutput(output);
  if (!found || found.objects === 0) return undefined;
  const missing = read.filter((name) => !found.keys.has(name));
  if (missing.length === 0) return undefined;
  const named = missing.map((name) => `.${name}`).join(', ');
  const modelled = missing.filter((name) => MODEL_FIELDS.has(name));
  const near = missing.map((name) => nearest(name, [...found.keys])).find((name) => name !== undefined);
  const advice =
    modelled.length > 0
      ? `; --json id,url,${modelled.join(',')} takes ${modelled.join(' and ')} from the record model, in either dialect`
      : near !== undefined
        ? `; did you mean .${near}?`
        : '';
  return `rsapi: warning: --jq reads ${named}, which no record of the output has (null in every one)${advice}`;
}
