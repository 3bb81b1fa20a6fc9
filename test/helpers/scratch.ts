// Scratch directories for tests: one fresh temp directory per call, removed when the test that asked for it ends.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { tempDir } from './cli.js';

/**
 * A file's maker of scratch directories named `prefix…`, each holding `files` (name -> content) when made. Call the
 * returned function inside a test (or a helper a test calls): the directory goes when that test finishes, after the
 * file's afterEach hooks (which stop the servers and processes that may still use it).
 */
export function scratchMaker(prefix: string, files: Record<string, string> = {}): () => string {
  return () => {
    const dir = tempDir(prefix);
    onTestFinished(dir.cleanup);
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir.path, name), content);
    return dir.path;
  };
}
