// The files one run reads and writes, checked together before anything is read or sent: no output may be an input of the run or another of its outputs.
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from './errors.js';

/**
 * A file a run reads or writes, named by the flag that gives it. A verb lists every one of its run (a flag not given
 * has no path), so a new input or output of any verb is one entry: `{ flag: '--codequality', path, writes: true }`.
 */
export interface RunFile {
  flag: string;
  path: string | undefined;
  /** The run reads it (a URL list, a baseline, a journal to resume). */
  reads?: boolean;
  /** The run writes it, whole or appended (--html, --summary, a journal). */
  writes?: boolean;
}

/**
 * Refuses (exit 2, one line) an output that is also an input of the run or another of its outputs: the run would
 * overwrite what it reads (`--from-file urls.txt --html urls.txt`) or one output another (`--junit x --html x`).
 * Files are compared as the file system sees them: `./x` and `x`, a symlink and its target, two hard links are one.
 */
export function checkRunFiles(files: readonly RunFile[]): void {
  const given = files.flatMap((file) => (file.path === undefined ? [] : [{ ...file, path: file.path, identity: fileIdentity(file.path) }]));
  for (const [index, output] of given.entries()) {
    if (!output.writes) continue;
    const other = given.find((file, at) => at !== index && file.identity === output.identity && (file.reads || at < index));
    if (other === undefined) continue;
    if (other.reads) {
      throw new UsageError(`${output.flag} ${output.path} is the input file of ${other.flag}: the run would write over what it reads; nothing was sent`, {
        hint: `give ${output.flag} a file of its own`,
      });
    }
    throw new UsageError(
      `${other.flag} ${other.path} and ${output.flag} ${output.path} are one file: one output would write over the other; nothing was sent`,
      {
        hint: 'give each output a file of its own',
      },
    );
  }
}

/** The file a path names: its device and inode when it exists, else the real path of its folder and its name. */
function fileIdentity(path: string): string {
  try {
    const { dev, ino } = statSync(path);
    return `inode ${dev}:${ino}`;
  } catch {
    try {
      return `path ${join(realpathSync(dirname(resolve(path))), basename(path))}`;
    } catch {
      return `path ${resolve(path)}`;
    }
  }
}
