// A history URL's passwords and its shown form (src/api/http/connection-url.ts), for the spellings people write: each
// password is taken as the pg client takes it, so whatever pg would send is a secret, and none is ever shown.
import { parse } from 'pg-connection-string';
import { describe, expect, it } from 'vitest';
import { redactedUrl, urlPasswords } from '../../../src/api/http/connection-url.js';

const SPELLINGS = [
  { name: 'an unencoded @ in the password', url: 'postgres://team:9-vault@pass@db.example.com:5432/seo', shown: 'postgres://team:***@db.example.com:5432/seo' },
  { name: 'an encoded @', url: 'postgres://team:9-vault%40pass@db.example.com/seo', shown: 'postgres://team:***@db.example.com/seo' },
  { name: 'a leading blank', url: '  postgres://team:9-vault-pass@db.example.com/seo', shown: 'postgres://team:***@db.example.com/seo' },
  {
    name: 'a leading tab and a trailing newline',
    url: '\tpostgresql://team:9-vault-pass@db.example.com/seo\n',
    shown: 'postgresql://team:***@db.example.com/seo',
  },
  { name: 'a blank inside the password', url: 'postgres://team:9-vault pass@db.example.com/seo', shown: 'postgres://team:***@db.example.com/seo' },
];

describe('urlPasswords and redactedUrl', () => {
  it.each(SPELLINGS)('$name: the password pg would send is a secret, and the URL is shown without it', ({ url, shown }) => {
    const passwords = urlPasswords(url);
    expect(passwords).toContain(parse(url.trim()).password);
    expect(redactedUrl(url)).toBe(shown);
    for (const password of passwords) expect(redactedUrl(url)).not.toContain(password);
  });

  it('an unencoded / in the password: the URL does not parse, so it is shown with no user info at all', () => {
    const url = 'postgres://team:9-vault/pass@db.example.com/seo';
    expect(() => parse(url)).toThrow();
    expect(redactedUrl(url)).toBe('postgres://***@db.example.com/seo');
    expect(urlPasswords(url)).toContain('9-vault/pass');
  });

  it('a password in the query, typed and as pg decodes it; a file path is left as given', () => {
    const url = 'postgres://team@db.example.com/seo?password=a%2Bb+c&sslmode=disable';
    expect(urlPasswords(url)).toEqual(expect.arrayContaining(['a%2Bb+c', parse(url).password]));
    expect(redactedUrl(url)).toBe('postgres://team@db.example.com/seo?password=***&sslmode=disable');
    expect(redactedUrl(' /var/lib/rsapi/history.db')).toBe(' /var/lib/rsapi/history.db');
    expect(urlPasswords('/var/lib/rsapi/history.db')).toEqual([]);
  });

  it('a URL with no password is shown as given', () => {
    expect(redactedUrl('postgres://team@db.example.com/seo')).toBe('postgres://team@db.example.com/seo');
    expect(urlPasswords('postgres://team@db.example.com/seo')).toEqual([]);
  });
});
