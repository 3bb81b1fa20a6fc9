// A JSON file the user wrote (rsapi.config.json's sections), read and parsed so that a message about it can name the
// line to fix: where each value of the text stands.
import { readFileSync } from 'node:fs';
import { UsageError } from '../runtime/errors.js';
import { fileError } from '../runtime/files.js';

/** The file's text, without a leading byte order mark; a file that cannot be read is a usage error, `missing` its hint. */
export function readJsonFile(path: string, what: string, missing: string): string {
  try {
    return readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    const refused = fileError(`read the ${what}`, path, error);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') refused.hint = missing;
    throw refused;
  }
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

/**
 * A file's parsed text, the line of each of its values (jsonLines), and how to refuse a value in it: a usage error
 * naming the file and the line of that value (`at`: its path, as jsonLines keys it; '' for the file as a whole, line 1).
 */
export function parseJsonFileWithLines(
  text: string,
  path: string,
): { whole: unknown; lines: Map<string, number>; refuse: (at: string, message: string, hint?: string) => UsageError } {
  const whole = parseJsonFile(text, path);
  const lines = jsonLines(text);
  return { whole, lines, refuse: (at, message, hint) => new UsageError(`${path}:${lines.get(at) ?? 1}: ${message}`, { hint }) };
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
