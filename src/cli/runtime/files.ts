// Files the user names (URL lists, password files, journals): read or opened with a plain-words error, and one-item-a-line lists.
import { UsageError } from './errors.js';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
};

/** A usage error for a file that cannot be used: `cannot read the password file x: no such file`. */
export function fileError(action: string, path: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = (code && REASONS[code]) ?? code ?? String(error);
  return new UsageError(`cannot ${action} ${path}: ${reason}`);
}

/** A file's text, without the byte order mark an editor on Windows may put first (JSON.parse refused it, unseen). */
export async function readUserFile(path: string, what: string): Promise<string> {
  try {
    // Taken on first use: imported, node:fs/promises loads Node's file streams at every start (this module is in the
    // chunk every verb loads).
    const { readFile } = process.getBuiltinModule('node:fs/promises');
    return (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  } catch (error) {
    throw fileError(`read the ${what}`, path, error);
  }
}

/** A list given one item a line (a URL file, ids on stdin): trimmed, blank lines and `#` comments skipped. */
export function listLines(text: string): { line: number; value: string }[] {
  return text
    .split(/\r?\n/)
    .map((line, index) => ({ line: index + 1, value: line.trim() }))
    .filter(({ value }) => value && !value.startsWith('#'));
}
