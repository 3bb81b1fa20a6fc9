// The files a CI run leaves (JUnit, Markdown summary): their paths checked before any request, written whole or appended.
import { statSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { RsapiError } from '../../api/errors.js';
import { UsageError } from './errors.js';
import { fileError } from './files.js';
import type { Secrets } from './secrets.js';

/**
 * A path rsapi will write at the end of the run: refused now (exit 2) if its folder is missing or it is a folder. An
 * empty path never comes here: commander refuses an empty flag value (refuseEmptyValues).
 */
export function checkOutputPath(path: string, flag: string): void {
  const folder = dirname(path);
  let folderStat: Stats;
  try {
    folderStat = statSync(folder);
  } catch (error) {
    throw fileError(`write ${flag} to`, path, error);
  }
  if (!folderStat.isDirectory()) throw new UsageError(`cannot write ${flag} to ${path}: ${folder} is not a directory`);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`cannot write ${flag} to ${path}: it is a directory`);
}

/**
 * Written beside the target and renamed over it: a reader never sees half a file. A file replaced keeps its mode (a
 * report kept 0600 stays 0600); the temporary files of this output that a killed run left are removed first. A
 * symbolic link keeps pointing where it did (its target is what is replaced); what is not a regular file
 * (/dev/stdout, a FIFO, a device) is written into, as a shell's `>` would, never replaced by a file of its own. Known
 * secrets are redacted.
 */
export async function writeFileAtomically(path: string, content: string, secrets: Secrets): Promise<void> {
  const text = secrets.redact(content);
  const { chmod, lstat, realpath, rename, rm, stat, writeFile } = fsPromises();
  let target = path;
  /** The mode of the file replaced, given to the new one once written (never readable by more than it was meanwhile). */
  let mode: number | undefined;
  try {
    const [followed, link] = await Promise.all([stat(path).catch(absent), lstat(path).catch(absent)]);
    // Into the thing itself: a device, a FIFO, or a link to nothing yet (its target is made).
    if ((followed && !followed.isFile()) || (!followed && link?.isSymbolicLink())) return await writeFile(path, text);
    if (followed) {
      target = await realpath(path);
      mode = followed.mode & 0o777;
    }
  } catch (error) {
    throw writeFailure(path, error);
  }
  await removeLeftTemporaries(target);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${globalThis.crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    await writeFile(temporary, text, { flag: 'wx', mode: mode === undefined ? 0o644 : 0o600 });
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw writeFailure(path, error);
  }
}

/** How old a temporary file of an output is when its writer is surely gone, whatever its pid: a write takes seconds. */
const LEFT_TEMPORARY_MS = 10 * 60_000;

/**
 * Removes the temporary files of this output (`.NAME.PID.RAND.tmp`) that a run killed between its write and its
 * rename left: those whose process is gone, or too old to be anyone's write in progress (a container's next run may
 * have the same pid). Another output's, and a live writer's, are left alone; a folder that cannot be read is no error.
 */
async function removeLeftTemporaries(target: string): Promise<void> {
  const { readdir, rm, stat } = fsPromises();
  const folder = dirname(target);
  const prefix = `.${basename(target)}.`;
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const pid = name.startsWith(prefix) ? /^(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name.slice(prefix.length))?.[1] : undefined;
    if (pid === undefined) continue;
    const file = join(folder, name);
    const old = async () => Date.now() - (await stat(file)).mtimeMs > LEFT_TEMPORARY_MS;
    if (!processAlive(Number(pid)) || (await old().catch(() => false))) await rm(file, { force: true }).catch(() => {});
  }
}

/** Whether a process of this pid runs (one of another user's, which may not be signalled, does). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Nothing there (stat of a missing path): any other failure is thrown on. */
function absent(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT') return undefined;
  throw error;
}

/** Appended in one write, as $GITHUB_STEP_SUMMARY expects (each step adds to it). Known secrets are redacted. */
export async function appendToFile(path: string, content: string, secrets: Secrets): Promise<void> {
  try {
    await fsPromises().appendFile(path, secrets.redact(content), { mode: 0o644 });
  } catch (error) {
    throw writeFailure(path, error);
  }
}

/**
 * Taken on first use: imported, node:fs/promises loads Node's file streams at every start, and this module is in the
 * chunk every verb loads (for checkOutputPath).
 */
function fsPromises(): typeof import('node:fs/promises') {
  return process.getBuiltinModule('node:fs/promises');
}

function writeFailure(path: string, error: unknown): RsapiError {
  const code = (error as NodeJS.ErrnoException).code;
  return new RsapiError(`cannot write ${path}: ${code ?? String(error)}`, { cause: error });
}
