// A run part's format (src/history/part.ts): written whole or not at all, read back line by line, and every way a file
// can fail to be a part named.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readPart, writePart, type PartHeader } from '../../../src/history/parts/part.js';
import { tempDir } from '../../helpers/cli.js';

const scratch = tempDir('rsapi-part-format-');
afterAll(() => scratch.cleanup());

const HEADER: PartHeader = {
  format: 'rsapi-part',
  version: 1,
  rsapi: '0.1.0',
  written: '2026-01-01T10:00:00.000Z',
  started: '2026-01-01T09:00:00.000Z',
  pipeline: 'p',
  command: 'reports create',
  job: '{"job":"weekly"}',
  origin: 'https://seo.example.net',
  shard: '1/2',
  input: { digest: 'ab'.repeat(32), urls: 2 },
};
const ENTRY = { url: 'https://example.com/é', at: 0, status: 'created' as const, report: { id: 12345678901234567890n, url: 'example.com/é' } };

describe('run parts', () => {
  it('are read back as written, big ids and all', async () => {
    const path = join(scratch.path, 'ok.gz');
    await writePart(path, HEADER, [ENTRY], { urls: 1, code: 0 });
    expect(await readPart(path)).toEqual({ path, header: HEADER, entries: [ENTRY], end: { end: true, urls: 1, code: 0 } });
  });

  it('a write that fails at its rename leaves no temporary file, and what was under the name as it was', async () => {
    const folder = join(scratch.path, 'fails');
    const path = join(folder, 'part.gz');
    // A folder under the part's name: the part is written whole beside it, then cannot replace it.
    mkdirSync(path, { recursive: true });
    await expect(writePart(path, HEADER, [ENTRY], { urls: 1, code: 0 })).rejects.toThrow();
    expect(readdirSync(folder)).toEqual(['part.gz']);
    expect(statSync(path).isDirectory()).toBe(true);
  });

  it.each([
    { name: 'an empty file', bytes: () => Buffer.alloc(0), problem: /^not a part of a sharded run/ },
    { name: 'not gzip', bytes: () => Buffer.from('https://example.com/\n'), problem: /^not a part of a sharded run \(not gzip\)$/ },
    { name: 'another ndjson', bytes: () => gzipSync('{"run":{}}\n'), problem: /^not a part of a sharded run \(no "format":"rsapi-part" header\)$/ },
    {
      name: 'a newer format',
      bytes: () => gzipSync(`${JSON.stringify({ ...HEADER, version: 99, rsapi: '9.0.0' })}\n`),
      problem: /^a part of format version 99 \(written by rsapi 9\.0\.0\); this rsapi reads version 1: update rsapi$/,
    },
    {
      name: 'no end line',
      bytes: () => gzipSync(`${JSON.stringify(HEADER)}\n${JSON.stringify(ENTRY, (_k, v) => (typeof v === 'bigint' ? 1 : v))}\n`),
      problem: /^cut short: no end line after its 1 URLs$/,
    },
    { name: 'a gzip stream cut', bytes: () => gzipSync(`${JSON.stringify(HEADER)}\n`).subarray(0, 30), problem: /^cut short: its gzip stream ends part-way/ },
  ])('$name is named as no part', async ({ bytes, problem }) => {
    const path = join(scratch.path, 'bad.gz');
    writeFileSync(path, bytes());
    const read = await readPart(path);
    expect('problem' in read && read.problem).toMatch(problem);
  });

  it('a file that is not there is named, not thrown', async () => {
    expect(await readPart(join(scratch.path, 'none.gz'))).toEqual({ path: join(scratch.path, 'none.gz'), problem: 'no such file' });
  });
});
