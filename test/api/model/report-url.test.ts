// A report's identity survives the service's cleaning of URLs (scheme, `www.`, root slash): one key for every form; one project name.
import { describe, expect, it } from 'vitest';
import { filterTermForService, projectName, reportIdentity, reportProject } from '../../../src/api/model/report-url.js';
import { CreateLedger, pickRedirected } from '../../../src/api/create/ledger.js';
import { reportListSilences } from '../../../src/api/list-silences.js';

describe('reportIdentity', () => {
  it.each([
    ['https://www.Example.com/', 'example.com'],
    ['http://example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['HTTPS://Example.com', 'example.com'],
    ['https://example.com:443/A#part', 'example.com/A'],
    ['http://example.com:8080/a?b=1', 'example.com:8080/a?b=1'],
    ['https://example.com/?q=1', 'example.com/?q=1'],
    ['www.example.com/new', 'example.com/new'],
    ['https://www.example.com/pricing/', 'example.com/pricing/'],
    ['https://wwwx.com/', 'wwwx.com'],
    ['https://example.com/a b', 'example.com/a%20b'],
  ])('%s is %s', (url, identity) => {
    expect(reportIdentity(url)).toBe(identity);
  });

  it('keeps a trailing slash off the root, as phpRank does, and the path case', () => {
    expect(reportIdentity('https://example.com/a/')).not.toBe(reportIdentity('https://example.com/a'));
    expect(reportIdentity('https://example.com/A')).not.toBe(reportIdentity('https://example.com/a'));
  });

  it('files a URL under its host without www. and port', () => {
    expect(reportProject('https://www.example.com:8443/old/x')).toBe('example.com');
    expect(reportProject('example.com/new?x=1')).toBe('example.com');
  });

  it('compares a project name as a host: case aside, without www. (upper-case WWW. too)', () => {
    expect(projectName('WWW.Example.com')).toBe('example.com');
    expect(projectName(' www.example.com ')).toBe('example.com');
    expect(projectName('wwwx.com')).toBe('wwwx.com');
  });
});

// The lost-create rule and the listing's --project check once cleaned project names apart: the rule dropped `www.`
// before lower-casing, so a report filed under `WWW.Example.com` was not the redirected page's own project.
describe('one project name for the redirect rule and the --project check', () => {
  const record = { id: 8, url: 'example.com/new', project: 'WWW.Example.com', created_at: '2026-11-20T09:14:05Z' };

  it('the redirect rule takes the one new report filed under WWW.Example.com for https://example.com/old', () => {
    const window = { since: Date.parse('2026-11-20T09:14:00Z'), newestIdBefore: 7 };
    const pick = pickRedirected('https://example.com/old', [record], window, new CreateLedger(), (r) => Date.parse(String(r.created_at)));
    expect(pick).toEqual({ found: record });
  });

  it('--project example.com matches it in the listing check', () => {
    const silences = reportListSilences({ project: 'example.com' });
    silences.see(record);
    expect(silences.found()).toEqual([]);
  });
});

describe('filterTermForService', () => {
  it.each([
    ['例え', 'xn--r8jz45g'],
    ['例え.jp', 'xn--r8jz45g.jp'],
    ['www.Bücher.de', 'www.xn--bcher-kva.de'],
    ['https://例え.jp/パス', 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9'],
    ['例え.jp/a?q=ü', 'xn--r8jz45g.jp/a?q=%C3%BC'],
    // ASCII only: as typed (the service's own search is left alone).
    ['/pricing', '/pricing'],
    ['Example.COM', 'Example.COM'],
  ])('%s is sent as %s, the form create sends hosts and paths in', (term, sent) => {
    expect(filterTermForService(term)).toBe(sent);
  });
});
