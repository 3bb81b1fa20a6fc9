// Whether something built from inputs is still what building would make now, by modification times.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Modification times of every file and directory under path (a deleted file changes its directory's). */
export function mtimes(path: string): number[] {
  const stat = statSync(path);
  if (!stat.isDirectory()) return [stat.mtimeMs];
  return [stat.mtimeMs, ...readdirSync(path).flatMap((name) => mtimes(join(path, name)))];
}

/** True when every output exists and was written after every input (a file or a tree) last changed. */
export function newerThanInputs(outputs: string[], inputs: string[]): boolean {
  if (!outputs.every((path) => existsSync(path))) return false;
  return Math.min(...outputs.flatMap(mtimes)) > Math.max(...inputs.flatMap(mtimes));
}
