// Files the user names (URL lists, password files, journals): read or opened with a plain-words error, and one-item-a-line lists.
import { UsageError } from './errors.js';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EEXIST: 'it exists',
  EROFS: 'the file system is read-only',
};

/** A usage error for a file that cannot be used: `cannot read the password file x: no such file`. */
export function fileError(action: string, path: string, error: unknown): UsageError {
  return new UsageError(`cannot ${action} ${path}: ${fileReason(error)}`);
}

/** Why a file operation failed, in words (`permission denied`), else its code. */
export function fileReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return (code && REASONS[code]) ?? code ?? String(error);
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

/** The file systems whose files are views of the kernel's state (Linux's statfs f_type magic), as a user knows them. */
const KERNEL_FILE_SYSTEMS = new Map([
  [0x9fa0, '/proc'],
  [0x62656572, '/sys'],
]);

/**
 * A file the user names as an input the run reads whole (rsapi.config.json, a URL file), read only when it is a
 * regular file of a disk. It is opened without waiting (a FIFO's open would wait for a writer, and a read of it block
 * the process past any signal); a FIFO, a device (/dev/zero would be read until memory ran out), a folder, or a file
 * of /proc or /sys (a process's environment) is refused unread. `missing`: the hint when there is no such file. A
 * leading byte order mark is dropped, as readUserFile does.
 */
export function readRegularFile(path: string, what: string, hints: { missing?: string; other?: string } = {}): string {
  const fs = process.getBuiltinModule('node:fs');
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const refused = fileError(`read the ${what}`, path, error);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') refused.hint = hints.missing;
    throw refused;
  }
  try {
    refuseIrregular(fs.fstatSync(fd), path, what, hints.other);
    return fs.readFileSync(fd, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw fileError(`read the ${what}`, path, error);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * For a plan: refuses (exit 2) an input file that is there but is no regular file of a disk, as readRegularFile will,
 * before anything is sent. A file that cannot be looked at is left to the read, which says why.
 */
export function checkRegularFile(path: string, what: string, hint?: string): void {
  let stat: import('node:fs').Stats;
  try {
    stat = process.getBuiltinModule('node:fs').statSync(path);
  } catch {
    return;
  }
  refuseIrregular(stat, path, what, hint);
}

function refuseIrregular(stat: import('node:fs').Stats, path: string, what: string, hint: string | undefined): void {
  const kind = stat.isDirectory() ? 'a directory' : stat.isFIFO() ? 'a FIFO' : stat.isSocket() ? 'a socket' : stat.isFile() ? undefined : 'a device';
  const kernel = kind === undefined ? KERNEL_FILE_SYSTEMS.get(process.getBuiltinModule('node:fs').statfsSync(path).type) : undefined;
  if (kind === undefined && kernel === undefined) return;
  throw new UsageError(`cannot read the ${what} ${path}: it is not a regular file (${kind ?? `a file of ${kernel}`})`, { hint });
}

/** A list given one item a line (a URL file, ids on stdin): trimmed, blank lines and `#` comments skipped. */
export function listLines(text: string): { line: number; value: string }[] {
  return text
    .split(/\r?\n/)
    .map((line, index) => ({ line: index + 1, value: line.trim() }))
    .filter(({ value }) => value && !value.startsWith('#'));
}
