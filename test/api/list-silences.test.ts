// What a list's service silently did not do: orders and filters checked on the records as they come, never a false accusation.
import { describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../src/api/model/record.js';
import { projectListSilences, reportListSilences } from '../../src/api/list-silences.js';
import type { ProjectListParams } from '../../src/api/projects.js';
import type { ReportListParams } from '../../src/api/reports.js';

function reportsFound(params: ReportListParams, records: ApiRecord[]) {
  const silences = reportListSilences(params);
  for (const record of records) silences.see(record);
  return silences.found();
}

const seed = (id: number, score: number, generated: string, url = `https://example.com/p/${id}`) => ({
  id,
  url,
  result: score > 79 ? 'good' : score >= 49 ? 'decent' : 'bad',
  score,
  generated_at: generated,
  project: 'example.com',
});
const phprank = (id: number, result: number, url = `example.com/p/${id}`) => ({
  id,
  url,
  result,
  project: 'example.com',
  generated_at: '2025-05-01T10:00:00.000000Z',
});

describe('order asked and not kept', () => {
  it.each<[string, ReportListParams, ApiRecord[], string[]]>([
    ['score desc, kept', { sortBy: 'score', sort: 'desc' }, [seed(1, 90, ''), seed(2, 90, ''), seed(3, 40, '')], []],
    ['score asc, kept (ties allowed)', { sortBy: 'score', sort: 'asc' }, [seed(3, 40, ''), seed(1, 90, ''), seed(2, 90, '')], []],
    ['score asc, phpRank sent id order', { sortBy: 'score', sort: 'asc' }, [phprank(3, 70), phprank(2, 95), phprank(1, 40)], ['--sort-by score']],
    ['score, no direction asked: one direction throughout is kept', { sortBy: 'score' }, [phprank(1, 10), phprank(2, 50), phprank(3, 50), phprank(4, 99)], []],
    ['score, no direction asked: both directions is not', { sortBy: 'score' }, [phprank(1, 10), phprank(2, 50), phprank(3, 20)], ['--sort-by score']],
    [
      'generated_at desc, phpRank dates, broken',
      { sortBy: 'generated_at', sort: 'desc' },
      [seed(1, 50, '2025-05-01T10:00:00.000000Z'), seed(2, 50, '2025-05-03T10:00:00.000000Z')],
      ['--sort-by generated_at'],
    ],
    ['id asc over ids past 2^53', { sortBy: 'id', sort: 'asc' }, [{ id: 9007199254740993n }, { id: 9007199254740994n }], []],
    ['id desc, broken by one pair', { sortBy: 'id', sort: 'desc' }, [{ id: 5 }, { id: 4 }, { id: 6 }], ['--sort-by id']],
    ['url asc, letters decide', { sortBy: 'url', sort: 'asc' }, [phprank(1, 1, 'a.example/x'), phprank(2, 1, 'B.example/y'), phprank(3, 1, 'c.example')], []],
    ['url asc, broken', { sortBy: 'url', sort: 'asc' }, [phprank(1, 1, 'c.example'), phprank(2, 1, 'a.example')], ['--sort-by url']],
    // Databases collate punctuation differently: "a-b" and "a/b" are in no order anyone can be held to.
    [
      'url, a first difference in punctuation tells nothing',
      { sortBy: 'url', sort: 'asc' },
      [phprank(1, 1, 'x.example/a/b'), phprank(2, 1, 'x.example/a-b')],
      [],
    ],
    ['records with no score are left out of the comparison', { sortBy: 'score', sort: 'desc' }, [phprank(1, 90), { id: 2, url: 'x' }, phprank(3, 20)], []],
  ])('%s', (_name, params, records, flags) => {
    expect(reportsFound(params, records).map((silence) => silence.flag)).toEqual(flags);
  });

  it('the order is checked across pages: the record after a page break follows the one before it', () => {
    const silences = reportListSilences({ sortBy: 'score', sort: 'desc' });
    for (const record of [phprank(1, 99), phprank(2, 80)]) silences.see(record);
    expect(silences.found()).toEqual([]);
    for (const record of [phprank(3, 85), phprank(4, 10)]) silences.see(record);
    expect(silences.found()).toEqual([{ flag: '--sort-by score', kind: 'order' }]);
  });
});

describe('filters asked and not applied', () => {
  it('--result compares the label of the record model (phpRank numbers included)', () => {
    expect(reportsFound({ result: 'bad' }, [phprank(1, 30), phprank(2, 48)])).toEqual([]);
    expect(reportsFound({ result: 'bad' }, [phprank(1, 30), phprank(2, 49), phprank(3, 95)])).toEqual([
      { flag: '--result bad', kind: 'filter', misses: 2, checked: 3 },
    ]);
    expect(reportsFound({ result: 'good' }, [seed(1, 90, ''), seed(2, 20, '')])).toEqual([{ flag: '--result good', kind: 'filter', misses: 1, checked: 2 }]);
  });

  it('--project compares host names in any case, with or without www.', () => {
    expect(reportsFound({ project: 'www.Example.com' }, [phprank(1, 50)])).toEqual([]);
    expect(reportsFound({ project: 'other.example' }, [phprank(1, 50)])).toMatchObject([{ flag: '--project other.example', misses: 1 }]);
  });

  it('--search matches the URL as stored or cleaned (no scheme, no www., any case)', () => {
    const stored = [phprank(1, 50, 'example.com/pricing'), seed(2, 50, '', 'https://www.example.com/Pricing/plans')];
    for (const search of ['/pricing', 'https://www.example.com/pricing', 'EXAMPLE.com/pricing/', 'https://']) {
      expect(reportsFound({ search }, search === 'https://' ? [stored[1]!] : stored)).toEqual([]);
    }
    expect(reportsFound({ search: '/blog' }, stored)).toMatchObject([{ flag: '--search /blog', misses: 2, checked: 2 }]);
  });

  it('a record without the field is neither a match nor a miss', () => {
    expect(reportsFound({ project: 'example.com', result: 'good' }, [{ id: 1 }])).toEqual([]);
  });

  it('nothing asked: idle, nothing to watch', () => {
    expect(reportListSilences({ perPage: 100 }).idle).toBe(true);
    expect(reportListSilences({ sort: 'asc' }).idle).toBe(true);
    expect(reportListSilences({ result: 'bad' }).idle).toBe(false);
  });
});

describe('projects', () => {
  function projectsFound(params: ProjectListParams, records: ApiRecord[]) {
    const silences = projectListSilences(params);
    for (const record of records) silences.see(record);
    return silences.found().map((silence) => silence.flag);
  }

  it('--sort-by project and created_at, --search on the name', () => {
    const rows = [
      { project: 'b.example', created_at: '2025-05-02T00:00:00Z' },
      { project: 'a.example', created_at: '2025-05-01T00:00:00Z' },
    ];
    expect(projectsFound({ sortBy: 'project', sort: 'desc' }, rows)).toEqual([]);
    expect(projectsFound({ sortBy: 'project', sort: 'asc' }, rows)).toEqual(['--sort-by project']);
    expect(projectsFound({ sortBy: 'created_at', sort: 'asc' }, rows)).toEqual(['--sort-by created_at']);
    expect(projectsFound({ search: 'A.EX' }, rows)).toEqual(['--search A.EX']);
    expect(projectsFound({ search: 'example' }, rows)).toEqual([]);
  });
});
