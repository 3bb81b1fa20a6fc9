// `reports create --shard I/N`: shares that cover the input exactly once, stable across runs, checked before any request.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseShard, selectShare, shareOf } from '../../../src/cli/bulk/shard.js';
import { tempDir } from '../../helpers/cli.js';
import { mockPerTest } from '../../helpers/mock.js';
import { runInProcess } from '../../helpers/run.js';
import { childNamed, childrenNamed, parseXml } from '../../helpers/xml.js';

const mock = mockPerTest({ seed: 0 });
const scratchDirs: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of scratchDirs.splice(0)) cleanup();
});

const INPUT = Array.from({ length: 30 }, (_, index) => `https://shard.example/page/${index + 1}`);

describe('--shard', () => {
  it('1/3, 2/3 and 3/3 together create every input URL exactly once, and say which share ran', async () => {
    const fixture = await mock();
    const dir = tempDir('rsapi-shard-');
    scratchDirs.push(dir.cleanup);
    const file = join(dir.path, 'urls.txt');
    // The same URLs in other forms and twice: de-duplicated and normalised before the split.
    writeFileSync(file, [...INPUT, INPUT[0]!, INPUT[1]!.replace('https://shard.example', 'HTTPS://Shard.Example:443'), ''].join('\n'));
    const shares: string[][] = [];
    for (const index of [1, 2, 3]) {
      const junit = join(dir.path, `share-${index}.xml`);
      const run = await runInProcess({
        argv: ['reports', 'create', '--from-file', file, '--shard', `${index}/3`, '--junit', junit, '-o', 'ndjson'],
        env: fixture.env,
      });
      expect(run.code).toBe(0);
      const urls = run.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { url: string }).url);
      expect(run.stderr).toContain(`rsapi: share ${index} of 3: ${urls.length} of ${INPUT.length} URLs`);
      const suite = childNamed(parseXml(readFileSync(junit, 'utf8')), 'testsuite')!;
      expect(suite.attributes.name).toBe(`rsapi reports create (share ${index} of 3)`);
      expect(childrenNamed(suite, 'testcase')).toHaveLength(urls.length);
      shares.push(urls);
    }
    const all = shares.flat();
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual([...INPUT].sort());
    expect(shares.every((share) => share.length > 0)).toBe(true);
    const posted = fixture.server.requests.filter((request) => request.method === 'POST').map((request) => request.form.url);
    expect(posted.sort()).toEqual([...INPUT].sort());
  });

  it('a URL falls in the same share whatever its form, and shares are stable', () => {
    expect(shareOf('HTTPS://Shard.Example', 7)).toBe(shareOf('https://shard.example/', 7));
    const { urls } = selectShare(INPUT, { index: 2, count: 4 });
    expect(selectShare(INPUT, { index: 2, count: 4 }).urls).toEqual(urls);
    for (const count of [1, 2, 5, 16]) {
      const covered = Array.from({ length: count }, (_, i) => selectShare(INPUT, { index: i + 1, count }).urls).flat();
      expect(covered.sort()).toEqual([...INPUT].sort());
    }
  });

  it.each(['0/3', '4/3', 'x/y', '1/0', '2', '1/3/4', '-1/3', '1/1001'])('--shard %s is a usage error before any request', async (value) => {
    const fixture = await mock();
    const run = await runInProcess({ argv: ['reports', 'create', 'https://example.com/', '--shard', value], env: fixture.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('give I/N with 1 <= I <= N');
    expect(fixture.server.requests).toHaveLength(0);
  });

  it('parses I/N', () => {
    expect(parseShard('3/3')).toEqual({ index: 3, count: 3 });
    expect(parseShard(' 1 / 2 ')).toEqual({ index: 1, count: 2 });
  });
});
