import { exitCodeOf } from '../../../src/cli/runtime/exit-codes.js';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, normaliseBaseUrl } from '../../../src/api/http/base-url.js';
import { ExitCode } from '../../../src/cli/runtime/exit-codes.js';
import { InvalidRequestError } from '../../../src/api/errors.js';

describe('normaliseBaseUrl', () => {
  it.each([
    ['site root', 'https://rank.example.com', 'https://rank.example.com/api/v1'],
    ['site root with a trailing slash', 'https://rank.example.com/', 'https://rank.example.com/api/v1'],
    ['with the /api/v1 prefix', 'https://rank.example.com/api/v1', 'https://rank.example.com/api/v1'],
    ['with /api/v1/ and a trailing slash', 'https://rank.example.com/api/v1/', 'https://rank.example.com/api/v1'],
    ['with several trailing slashes', 'https://rank.example.com/api/v1///', 'https://rank.example.com/api/v1'],
    ['under a sub-path', 'https://example.com/rank', 'https://example.com/rank/api/v1'],
    ['under a sub-path with /api/v1/', 'https://example.com/rank/api/v1/', 'https://example.com/rank/api/v1'],
    ['with a port', 'http://127.0.0.1:8787', 'http://127.0.0.1:8787/api/v1'],
    ['with surrounding spaces', '  https://rank.example.com/api/v1  ', 'https://rank.example.com/api/v1'],
    ['with an upper-case host', 'https://Rank.Example.COM', 'https://rank.example.com/api/v1'],
    ['with the default port spelled out', 'https://rank.example.com:443/', 'https://rank.example.com/api/v1'],
  ])('%s: %s -> %s', (_name, input, expected) => {
    expect(normaliseBaseUrl(input)).toBe(expected);
  });

  it('is idempotent', () => {
    const once = normaliseBaseUrl('https://rank.example.com/');
    expect(normaliseBaseUrl(once)).toBe(once);
  });

  it.each([
    ['not a URL', 'not a host'],
    ['a scheme typed with one slash less', 'ftp:/rank.example.com'],
    ['empty', ''],
    ['another scheme', 'ftp://rank.example.com'],
    ['credentials in the URL', 'https://user:secret@rank.example.com'],
  ])('rejects %s as a usage error (exit 2)', (_name, input) => {
    let caught: unknown;
    try {
      normaliseBaseUrl(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidRequestError);
    expect(exitCodeOf(caught)).toBe(ExitCode.usage);
  });

  it('never repeats credentials in its error message', () => {
    expect(() => normaliseBaseUrl('https://user:s3cret-value@rank.example.com')).toThrow(/must not contain credentials/);
    try {
      normaliseBaseUrl('https://user:s3cret-value@rank.example.com');
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret-value');
    }
  });
});

describe('isLoopbackHost', () => {
  it.each(['localhost', 'api.localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(['example.com', '10.0.0.1', '192.168.1.1', '128.0.0.1', 'localhost.example.com', '::2', '0.0.0.0'])('%s is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });

  it('agrees with the hostname of a parsed URL', () => {
    expect(isLoopbackHost(new URL('http://[::1]:8787/api/v1').hostname)).toBe(true);
    expect(isLoopbackHost(new URL('http://127.0.0.1:8787/').hostname)).toBe(true);
    expect(isLoopbackHost(new URL('http://rank.example.com/').hostname)).toBe(false);
  });
});

describe('normaliseBaseUrl: a bare hostname, as typed at the login prompt or given to --base-url', () => {
  it.each([
    ['rank.example.com', 'https://rank.example.com/api/v1'],
    ['rank.example.com/api/v1/', 'https://rank.example.com/api/v1'],
    ['127.0.0.1:19501', 'http://127.0.0.1:19501/api/v1'],
    ['localhost:8787', 'http://localhost:8787/api/v1'],
    ['[::1]:8787', 'http://[::1]:8787/api/v1'],
    ['http://rank.example.com', 'http://rank.example.com/api/v1'],
    ['https://rank.example.com/seo', 'https://rank.example.com/seo/api/v1'],
  ])('%s is %s', (typed, understood) => {
    expect(normaliseBaseUrl(typed)).toBe(understood);
  });

  it('still refuses what is no http(s) address', () => {
    expect(() => normaliseBaseUrl('ftp://nope.example')).toThrow(/only http and https/);
    expect(() => normaliseBaseUrl('not a host')).toThrow(/invalid base URL/);
  });
});
