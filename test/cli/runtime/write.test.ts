// The CI files' writer (src/cli/report-files/write.ts): whole or not at all, and never a file put in the place of a
// link, a FIFO or a device the user named (`--junit /dev/stdout` as root once replaced the device with a file).
import { spawnSync } from 'node:child_process';
import { chmodSync, createReadStream, lstatSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomically } from '../../../src/cli/runtime/write.js';
import { Secrets } from '../../../src/cli/runtime/secrets.js';
import { scratchMaker } from '../../helpers/scratch.js';

const scratch = scratchMaker('rsapi-write-');

/** The process's umask, read by setting it back at once. */
function currentUmask(): number {
  const mask = process.umask(0o022);
  process.umask(mask);
  return mask;
}
const secrets = new Secrets();

describe('writeFileAtomically', () => {
  it('replaces a regular file whole, leaving no temporary file beside it', async () => {
    const dir = scratch();
    const path = join(dir, 'junit.xml');
    writeFileSync(path, 'old');
    await writeFileAtomically(path, '<testsuites/>', secrets);
    expect(readFileSync(path, 'utf8')).toBe('<testsuites/>');
    expect(readdirSync(dir)).toEqual(['junit.xml']);
  });

  it('keeps the mode of the file it replaces (0600 stayed 0600 only until the next run); a new file is 0644', async () => {
    const dir = scratch();
    const kept = join(dir, 'kept.html');
    writeFileSync(kept, 'old');
    chmodSync(kept, 0o600);
    await writeFileAtomically(kept, 'new', secrets);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    chmodSync(kept, 0o640);
    await writeFileAtomically(kept, 'newer', secrets);
    expect(statSync(kept).mode & 0o777).toBe(0o640);
    expect(readFileSync(kept, 'utf8')).toBe('newer');
    const made = join(dir, 'made.html');
    await writeFileAtomically(made, 'new', secrets);
    expect(statSync(made).mode & 0o777).toBe(0o644 & ~currentUmask());
  });

  it("removes this output's temporary files a killed run left (its process gone, or too old), and no other file", async () => {
    const dir = scratch();
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const left = [`.junit.xml.${gone}.0badf00d.tmp`, `.junit.xml.${process.pid}.01d01d00.tmp`];
    const kept = [`.junit.xml.${process.pid}.1234abcd.tmp`, `.other.xml.${gone}.0badf00d.tmp`, `.junit.xml.5.${gone}.0badf00d.tmp`, '.junit.xml.notes'];
    for (const name of [...left, ...kept]) writeFileSync(join(dir, name), 'x');
    // A live pid's file from an hour ago: a container's next run may have the pid of the one killed.
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(dir, left[1]!), hourAgo, hourAgo);
    await writeFileAtomically(join(dir, 'junit.xml'), '<testsuites/>', secrets);
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', ...kept].sort());
  });

  it('a symbolic link stays a link: the file it points to is replaced', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'target.xml'), 'old');
    symlinkSync('target.xml', join(dir, 'link.xml'));
    await writeFileAtomically(join(dir, 'link.xml'), 'new', secrets);
    expect(lstatSync(join(dir, 'link.xml')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'link.xml'))).toBe('target.xml');
    expect(readFileSync(join(dir, 'target.xml'), 'utf8')).toBe('new');
  });

  it('a link to nothing yet makes the file it points to', async () => {
    const dir = scratch();
    symlinkSync('made.xml', join(dir, 'link.xml'));
    await writeFileAtomically(join(dir, 'link.xml'), 'new', secrets);
    expect(lstatSync(join(dir, 'link.xml')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'made.xml'), 'utf8')).toBe('new');
  });

  it.skipIf(spawnSync('mkfifo', ['--version']).status !== 0)('a FIFO is written into, as `>` would, and stays a FIFO', async () => {
    const fifo = join(scratch(), 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const read = new Promise<string>((resolve, reject) => {
      let text = '';
      createReadStream(fifo, 'utf8')
        .on('data', (chunk) => (text += chunk))
        .on('end', () => resolve(text))
        .on('error', reject);
    });
    await writeFileAtomically(fifo, 'through the pipe', secrets);
    expect(await read).toBe('through the pipe');
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('a failed write into a device is an error naming the path, not a silent success', async () => {
    // /dev/full answers every write with ENOSPC; it is only opened here, never replaced (the test above proves how).
    await expect(writeFileAtomically('/dev/full', 'x', secrets)).rejects.toThrow('cannot write /dev/full: ENOSPC');
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
  });
});
