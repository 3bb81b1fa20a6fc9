// Where each value of a JSON text stands (its line), so that a message about a file can name the line to fix.

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
