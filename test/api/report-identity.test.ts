// A report's identity survives the service's cleaning of URLs (scheme, `www.`, root slash): one key for every form.
import { describe, expect, it } from 'vitest';
import { reportIdentity, reportProject } from '../../src/api/report-url.js';

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
});
