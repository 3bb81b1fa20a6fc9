// What gives way when a report table is too wide: the time of day, then project and privacy, before the URL is cut in its middle.
import { describe, expect, it } from 'vitest';
import { fitColumns } from '../../../src/output/table/table-fit.js';
import { fitNotice, ListTable, type Fitted } from '../../../src/output/table/table.js';
import { displayWidth, fitMiddle, wrapToWidth } from '../../../src/output/table/width.js';

const COLUMNS = ['id', 'url', 'project', 'result', 'score', 'privacy', 'generated_at'];
const KEEP = new Set(['id', 'result', 'score']);

/** Draws report rows at `width`; the lines, the columns said to be left out and those said to be cut. */
async function draw(records: Record<string, unknown>[], width: number | undefined, columns = COLUMNS) {
  const table = new ListTable(columns);
  for (const record of records) table.add(record);
  let text = '';
  let fitted: Fitted = { hidden: [], cut: [] };
  await table.draw({ write: (chunk: string) => void (text += chunk) }, { kind: 'report', color: false, width, onFitted: (told) => void (fitted = told) });
  return { lines: text.split('\n').filter((line) => line !== ''), ...fitted };
}

const site = (id: number, path: string, privacy = 0) => ({
  id,
  url: `https://blog.example.net/${path}`,
  project: 'blog.example.net',
  result: 'good',
  score: 90,
  privacy,
  generated_at: '2026-03-18T06:00:00Z',
});

describe('fitColumns: the order things give way in', () => {
  // id 2, url 26, project 16, result 6, score 5, privacy 8, generated_at 19; six gaps of 2: 94 in all.
  const natural = [2, 26, 16, 6, 5, 8, 19];
  const steps = new Map([[6, [16, 12]]]);
  const fitAt = (width: number, columns = COLUMNS) => fitColumns(columns, natural, { width, gap: 2, keep: KEEP, steps, dropBeforeUrl: ['project', 'privacy'] });

  const cases: { width: number; widths: (number | undefined)[]; hidden: number[]; name: string }[] = [
    { name: 'everything whole when it fits', width: 94, widths: natural, hidden: [] },
    { name: 'the seconds go first', width: 91, widths: [2, 26, 16, 6, 5, 8, 16], hidden: [] },
    { name: 'then the time of day (the date stays as wide as its heading)', width: 87, widths: [2, 26, 16, 6, 5, 8, 12], hidden: [] },
    { name: 'then the project, before the URL loses a column', width: 86, widths: [2, 26, undefined, 6, 5, 8, 12], hidden: [2] },
    { name: 'then privacy', width: 59, widths: [2, 26, undefined, 6, 5, undefined, 12], hidden: [2, 5] },
    { name: 'only then is the URL cut', width: 58, widths: [2, 25, undefined, 6, 5, undefined, 12], hidden: [2, 5] },
  ];
  for (const row of cases) {
    it(`${row.name} (${row.width} columns)`, () => {
      expect(fitAt(row.width)).toEqual({ widths: row.widths, hidden: row.hidden });
    });
  }

  it('without a url column nothing is left out early: project is what names the row then', () => {
    const columns = ['id', 'link', 'project', 'result', 'score', 'privacy', 'generated_at'];
    expect(fitAt(86, columns).hidden).toEqual([]);
  });
});

describe('a report table at a terminal width', () => {
  const records = [site(63, 'contact-2', 2), site(58, 'about-2', 0), site(53, 'pricing-2', 1)];

  it('at 80 columns: the URLs whole without their scheme, the date without its time, project left out and said so', async () => {
    const { lines, hidden } = await draw(records, 80);
    expect(lines).toEqual(
      [
        'id  url                        result  score  privacy   generated_at',
        '63  blog.example.net/contact-2  good    90     password  2026-03-18',
        '58  blog.example.net/about-2    good    90     public    2026-03-18',
        '53  blog.example.net/pricing-2  good    90     private   2026-03-18',
      ].map((line) => line.replace(/^(63|58|53|id) {2}(\S+) +/, (_all, id: string, url: string) => `${id}  ${url.padEnd(26)}  `)),
    );
    expect(hidden).toEqual(['project']);
  });

  it('at 30 columns the URL is cut in its middle: the host starts it, the path ends it, every row told apart', async () => {
    const { lines } = await draw(records, 30);
    const urls = lines.slice(1).map((line) => line.split(/ +/)[1]);
    expect(urls).toEqual([
      expect.stringMatching(/^blog\..*….*act-2$/),
      expect.stringMatching(/^blog\..*….*out-2$/),
      expect.stringMatching(/^blog\..*….*ing-2$/),
    ]);
    expect(new Set(urls).size).toBe(3);
    // With a little more room the whole path end shows after the host's start.
    const roomier = await draw(records, 40);
    expect(roomier.lines.slice(1).map((line) => line.split(/ +/)[1])).toEqual([
      expect.stringMatching(/^blog\.exa[a-z]*…\/contact-2$/),
      expect.stringMatching(/^blog\.exa[a-z]*…\/about-2$/),
      expect.stringMatching(/^blog\.exa[a-z]*…\/pricing-2$/),
    ]);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(30);
  });

  it('--wide (no width): the scheme, the project and the seconds all stay', async () => {
    const { lines, hidden } = await draw(records, undefined);
    expect(lines[1]).toMatch(/^63 +https:\/\/blog\.example\.net\/contact-2 +blog\.example\.net +good +90 +password +2026-03-18 \d\d:\d\d:\d\d$/);
    expect(hidden).toEqual([]);
  });

  it('failed checks cut to fit are said to be cut (a URL or a date cut to fit is not: it keeps its host, path end, day)', async () => {
    const failing = records.map((record) => ({ ...record, failed_checks: 'meta_description,headings,image_keywords' }));
    const narrow = await draw(failing, 50, ['id', 'url', 'result', 'generated_at', 'failed_checks']);
    expect(narrow.lines[1]).toMatch(/…$/);
    expect(narrow).toMatchObject({ hidden: [], cut: ['failed_checks'] });
    const wide = await draw(failing, 200, ['id', 'url', 'result', 'generated_at', 'failed_checks']);
    expect(wide).toMatchObject({ hidden: [], cut: [] });
    expect((await draw(records, 30)).cut).toEqual([]);
  });

  it.each([
    [{ hidden: ['project'], cut: [] }, 'rsapi: project left out to fit the terminal; --wide shows every column whole'],
    [{ hidden: [], cut: ['failed_checks'] }, 'rsapi: failed_checks cut to fit the terminal; --wide shows every value whole'],
    [
      { hidden: ['project', 'privacy'], cut: ['failed_checks'] },
      'rsapi: project, privacy left out and failed_checks cut to fit the terminal; --wide shows every column and value whole',
    ],
  ])('the notice for %j', (fitted, line) => {
    expect(fitNotice(fitted)).toBe(line);
  });

  it('a URL stored without a scheme (phpRank) is shown as stored', async () => {
    const { lines } = await draw([{ ...site(7, 'x'), url: 'example.com/new/x' }], 80);
    expect(lines[1]).toMatch(/^7 +example\.com\/new\/x +blog\.example\.net +good/);
  });
});

describe('fitMiddle and wrapToWidth', () => {
  it('fitMiddle keeps `head` columns of the start and fills the rest from the end', () => {
    expect(fitMiddle('example.com/a/b/c/pricing', 15, 6)).toEqual({ text: 'exampl…/pricing', width: 15 });
    expect(fitMiddle('short', 10, 3)).toEqual({ text: 'short', width: 5 });
    const wide = fitMiddle('例え.jp/日本語のページ/👍', 12, 4);
    expect(wide.width).toBeLessThanOrEqual(12);
    expect(displayWidth(wide.text)).toBe(wide.width);
    expect(wide.text).toMatch(/^例え…/);
    expect(wide.text.endsWith('/👍')).toBe(true);
  });

  it('wrapToWidth breaks a URL after a `/` in the second half of a line, and loses nothing', () => {
    const url = 'https://www.example.com/a/rather/long/path/to/a/page?with=query&and=more';
    const lines = wrapToWidth(url, 26);
    expect(lines.join('')).toBe(url);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(26);
    expect(lines[0]).toBe('https://www.example.com/a/');
    expect(lines.slice(0, -1).every((line) => /[/?&]$/.test(line))).toBe(true);
  });

  it('wrapToWidth cuts at the width when there is nowhere to break, never inside a wide character', () => {
    expect(wrapToWidth('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    const lines = wrapToWidth('日本語のページです', 5);
    expect(lines.join('')).toBe('日本語のページです');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(5);
  });
});
