// Files the user names: a file read whole only when it is a regular file of a disk (a FIFO, a device, /proc refused
// unread, without blocking), and one-item-a-line lists.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRegularFile, listLines, readRegularFile } from '../../../src/cli/runtime/files.js';
import { UsageError } from '../../../src/cli/runtime/errors.js';
import { scratchMaker } from '../../helpers/scratch.js';

const scratch = scratchMaker('rsapi-files-');

function refusal(read: () => unknown): UsageError {
  try {
    read();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('read');
}

describe('readRegularFile and checkRegularFile', () => {
  it('read a regular file, its byte order mark dropped', () => {
    const path = join(scratch(), 'urls.txt');
    writeFileSync(path, '\uFEFFhttps://a.example/\n');
    expect(readRegularFile(path, 'URL file')).toBe('https://a.example/\n');
    expect(() => checkRegularFile(path, 'URL file')).not.toThrow();
  });

  const fifo = () => {
    const path = join(scratch(), 'fifo');
    execFileSync('mkfifo', [path]);
    return path;
  };
  const folder = () => {
    const path = join(scratch(), 'folder');
    mkdirSync(path);
    return path;
  };
  it.each([
    // Read, a FIFO with no writer blocked the process (past SIGTERM), /dev/zero filled the memory, and /proc printed
    // the environment into the log as one "invalid URL" line.
    { name: 'a FIFO', path: fifo, kind: 'a FIFO' },
    { name: '/dev/zero', path: () => '/dev/zero', kind: 'a device' },
    { name: '/proc/self/environ', path: () => '/proc/self/environ', kind: 'a file of /proc' },
    { name: 'a folder', path: folder, kind: 'a directory' },
  ])('refuse $name unread, with a hint', ({ path, kind }) => {
    const file = path();
    for (const read of [() => readRegularFile(file, 'URL file', { other: 'give a file' }), () => checkRegularFile(file, 'URL file', 'give a file')]) {
      const error = refusal(read);
      expect(error.message).toBe(`cannot read the URL file ${file}: it is not a regular file (${kind})`);
      expect(error.hint).toBe('give a file');
    }
  });

  it('a missing file: the read says so with its hint; the plan leaves it to the read', () => {
    const path = join(scratch(), 'none.json');
    expect(refusal(() => readRegularFile(path, 'configuration file', { missing: 'write one' }))).toMatchObject({
      message: `cannot read the configuration file ${path}: no such file`,
      hint: 'write one',
    });
    expect(() => checkRegularFile(path, 'configuration file')).not.toThrow();
  });
});

describe('listLines', () => {
  it('skips blanks and comments, numbering the lines as the file does', () => {
    expect(listLines('a\n\n# note\r\n  b  \n')).toEqual([
      { line: 1, value: 'a' },
      { line: 4, value: 'b' },
    ]);
  });
});
