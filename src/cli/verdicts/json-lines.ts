// A JSON file the user wrote (rsapi.config.json's sections), read and parsed so that a message about it can name the
// line to fix: where each value of the text stands.
import { nearest } from '../../suggest.js';
import { UsageError } from '../runtime/errors.js';
import { readRegularFile } from '../runtime/files.js';

/**
 * The file's text, without a leading byte order mark; a file that cannot be read, or is no regular file (a FIFO would
 * block the process, /dev/zero never end), is a usage error, `missing` its hint when there is no such file.
 */
export function readJsonFile(path: string, what: string, missing: string): string {
  return readRegularFile(path, what, { missing });
}

/** The parsed text; not JSON is a usage error naming the file and, where JSON.parse tells, the line. */
export function parseJsonFile(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const offset = /position (\d+)/.exec((error as Error).message)?.[1];
    const where = offset === undefined ? path : `${path}:${lineOfOffset(text, Number(offset))}`;
    throw new UsageError(`${where}: not JSON: ${(error as Error).message}`);
  }
}

/** How deep a configuration file may nest: its deepest value (a rule's check level) is at depth 4. */
export const MAX_JSON_DEPTH = 32;

/** How a value of a JSON file is refused: a usage error naming the file and the line of the value at `at`. */
export type Refuse = (at: string, message: string, hint?: string) => UsageError;

/**
 * A file's parsed text, the line of each of its values (jsonLines), and how to refuse a value in it: a usage error
 * naming the file and the line of that value (`at`: its path, as jsonLines keys it; '' for the file as a whole, line 1).
 * A file nested deeper than MAX_JSON_DEPTH is refused first: its lines are read by recursion.
 */
export function parseJsonFileWithLines(text: string, path: string): { whole: unknown; lines: Map<string, number>; refuse: Refuse } {
  const whole = parseJsonFile(text, path);
  const deep = lineTooDeep(text, MAX_JSON_DEPTH);
  if (deep !== undefined) throw new UsageError(`${path}:${deep}: nested more than ${MAX_JSON_DEPTH} levels deep; no key of the file is`);
  const lines = jsonLines(text);
  return { whole, lines, refuse: (at, message, hint) => new UsageError(`${path}:${lines.get(at) ?? 1}: ${message}`, { hint }) };
}

/**
 * Refuses the first key of `object` (the value at `at`, '' for the file) that is not one of `known`: `unknown key
 * "asserts"; did you mean "assert"?` at the key's line (`unknown key "x" in "audit"` with `section`). A misspelt key is
 * never skipped: the setting it meant would be silently off.
 */
export function refuseUnknownKeys(object: Record<string, unknown>, known: readonly string[], at: string, refuse: Refuse, section?: string): void {
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) throw refuse(at === '' ? key : `${at}.${key}`, unknownWord('key', key, known, section ? `in "${section}"` : undefined));
  }
}

/** `unknown check id "titel"; did you mean "title"?`, or the words there are when none is near; `gloss` follows the word. */
export function unknownWord(what: string, word: string, known: readonly string[], gloss?: string): string {
  const near = nearest(word, known);
  const advice = near ? `did you mean "${near}"?` : known.length <= 6 ? `one of ${known.map((k) => `"${k}"`).join(', ')}` : '';
  return `unknown ${what} "${word}"${gloss ? ` ${gloss}` : ''}${advice ? `; ${advice}` : ''}`;
}

/** The line where a JSON text first nests deeper than `max` arrays and objects, scanned without recursion. */
function lineTooDeep(text: string, max: number): number | undefined {
  let depth = 0;
  let line = 1;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '\n') line++;
    else if (char === '"') {
      for (index++; index < text.length && text[index] !== '"'; index++) if (text[index] === '\\') index++;
    } else if (char === '{' || char === '[') {
      if (++depth > max) return line;
    } else if (char === '}' || char === ']') depth--;
  }
  return undefined;
}

/**
 * The line (1-based) of every value of a JSON text that JSON.parse accepted, by its path: `assert.1.checks.titel` is
 * the line of that key. Object members are placed at their key, array items at their first character.
 */
export function jsonLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let index = 0;
  let line = 1;
  const skipSpace = () => {
    while (index < text.length && /\s/.test(text[index]!)) {
      if (text[index] === '\n') line++;
      index++;
    }
  };
  const readString = (): string => {
    const start = index;
    index++;
    while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
    index++;
    return JSON.parse(text.slice(start, index)) as string;
  };
  const value = (path: string): void => {
    skipSpace();
    lines.set(path, line);
    const char = text[index];
    if (char === '{') {
      index++;
      skipSpace();
      if (text[index] === '}') {
        index++;
        return;
      }
      for (;;) {
        skipSpace();
        const keyLine = line;
        const key = readString();
        skipSpace();
        index++; // :
        const child = path === '' ? key : `${path}.${key}`;
        value(child);
        lines.set(child, keyLine);
        skipSpace();
        if (text[index++] === '}') return;
      }
    }
    if (char === '[') {
      index++;
      skipSpace();
      if (text[index] === ']') {
        index++;
        return;
      }
      for (let item = 0; ; item++) {
        value(path === '' ? String(item) : `${path}.${item}`);
        skipSpace();
        if (text[index++] === ']') return;
      }
    }
    if (char === '"') {
      readString();
      return;
    }
    while (index < text.length && !/[\s,\]}]/.test(text[index]!)) index++;
  };
  value('');
  return lines;
}

/** The line of a character offset (JSON.parse's `position N`). */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index++) if (text[index] === '\n') line++;
  return line;
}
