// The `audit` section of rsapi.config.json: each mistake refused with the file, the line and the nearest right word;
// the starter file `--init` writes reads back as the defaults; the shipped JSON Schema knows every key.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUDIT_KEYS, parseAuditFile } from '../../../../src/cli/commands/audit/config.js';
import { siteJob, starterFile } from '../../../../src/cli/commands/audit/init.js';
import { UsageError } from '../../../../src/cli/runtime/errors.js';

function refusal(text: string): string {
  try {
    parseAuditFile(text, 'rsapi.config.json');
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('the audit section', () => {
  it.each([
    {
      name: 'an unknown key, with the nearest',
      text: '{\n  "audit": {\n    "sitemaps": ["https://a.example/"],\n    "failOnNewFailure": true\n  }\n}',
      want: 'rsapi.config.json:4: unknown key "failOnNewFailure" in "audit"; did you mean "failOnNewFailures"?',
    },
    {
      name: 'a sitemap that is no URL',
      text: '{"audit": {\n"sitemaps": [\n"example.com"]}}',
      want: 'rsapi.config.json:3: "example.com" is not an http(s) URL (a site root or a sitemap)',
    },
    { name: 'a bad glob', text: '{"audit": {"sitemaps": ["https://a.example/"],\n"exclude": ["[z-a]"]}}', want: 'rsapi.config.json:2: "[z-a]"' },
    { name: 'maxUrls of 0', text: '{"audit": {"urls": ["https://a.example/"], "maxUrls": 0}}', want: '"maxUrls" must be a whole number of 1 or more' },
    {
      name: 'an unknown existing mode',
      text: '{"audit": {"urls": ["https://a.example/"], "existing": "update"}}',
      want: '"existing" must be one of "new", "refresh", "skip"',
    },
    {
      name: 'a resumeWithin that is no duration',
      text: '{"audit": {"urls": ["https://a.example/"],\n"resumeWithin": "a week"}}',
      want: 'rsapi.config.json:2: "resumeWithin" must be a duration such as "1d", "12h" or "30m"',
    },
    { name: 'no page at all', text: '{"audit": {"job": "weekly"}}', want: '"audit" names no page: give "sitemaps", "urls" or "urlFile"' },
    { name: 'no audit section', text: '{"assert": [{"match": "**", "minScore": 50}]}', want: 'the file holds no "audit" section' },
    // Each was an "unexpected error" (exit 1) when the run read it.
    {
      name: 'a sitemap URL that does not parse',
      text: '{"audit": {"sitemaps": [\n"http://[bad"]}}',
      want: 'rsapi.config.json:2: "http://[bad" is not a valid URL',
    },
    {
      name: 'a job with a bidirectional override',
      text: '{"audit": {"urls": ["https://a.example/"],\n"job": "abc\u202edef"}}',
      want: 'rsapi.config.json:2: "job" must be 1 to 200 printable characters',
    },
    { name: 'not JSON', text: '{"audit": {\n"urls": [,]}}', want: 'not JSON' },
    // Read as unknown and skipped, a misspelt "assert" turned every assertion off: the run passed, exit 0.
    {
      name: 'a misspelt top-level key ("asserts")',
      text: '{\n  "audit": { "urls": ["https://a.example/"] },\n  "asserts": [{ "minScore": 90 }]\n}',
      want: 'rsapi.config.json:3: unknown key "asserts"; did you mean "assert"?',
    },
    {
      name: 'a top-level key in the wrong case ("Assert")',
      text: '{\n  "Assert": [{ "minScore": 90 }],\n  "audit": { "urls": ["https://a.example/"] }\n}',
      want: 'rsapi.config.json:2: unknown key "Assert"; did you mean "assert"?',
    },
    {
      name: 'a top-level key far from any',
      text: '{"audit": {"urls": ["https://a.example/"]},\n"notes": "weekly"}',
      want: 'rsapi.config.json:2: unknown key "notes"; one of "$schema", "assert", "audit"',
    },
    {
      name: 'a file nested 8,000 levels deep',
      text: `{"audit": {"urls": ["https://a.example/"], "job": ${'['.repeat(8000)}${']'.repeat(8000)}}}`,
      want: 'rsapi.config.json:1: nested more than 32 levels deep',
    },
  ])('refuses $name', ({ text, want }) => {
    expect(refusal(text)).toContain(want);
  });

  it('reads the starter file --init writes: every key at its default, the site as its sitemap and job', () => {
    const site = 'https://www.example.com/';
    const file = parseAuditFile(starterFile({ site, job: siteJob(site), schema: './schema.json' }), 'rsapi.config.json');
    expect(file.audit).toMatchObject({
      job: 'example.com',
      sitemaps: ['https://www.example.com/'],
      existing: 'refresh',
      failOnNewFailures: true,
      html: 'audit.html',
    });
    expect(file.audit.history).toBeUndefined();
    expect(file.hasAssertions).toBe(false);
    expect(Object.keys(JSON.parse(starterFile({ site, job: 'j', schema: 's' })).audit).sort()).toEqual([...AUDIT_KEYS].sort());
  });

  it('reads resumeWithin as a duration, as --resume-within takes it', () => {
    expect(parseAuditFile('{"audit": {"urls": ["https://a.example/"], "resumeWithin": "12h"}}', 'f.json').audit.resumeWithin).toBe(12 * 3_600_000);
  });

  it('the shipped schema describes every key of the section, each allowed to be null', () => {
    const schema = JSON.parse(readFileSync(new URL('../../../../schema/rsapi.config.schema.json', import.meta.url), 'utf8'));
    const audit = schema.$defs.audit;
    expect(Object.keys(audit.properties).sort()).toEqual([...AUDIT_KEYS].sort());
    expect(audit.additionalProperties).toBe(false);
    for (const key of AUDIT_KEYS) expect(audit.properties[key].anyOf).toContainEqual({ type: 'null' });
  });
});
