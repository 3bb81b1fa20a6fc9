// The JSON Schema of the assertions file (schema/rsapi.config.schema.json in the package), made from the check ids,
// levels and keys the reader knows, so editors complete them; a test holds the shipped file equal to this.
import { CHECK_NAMES, IMPORTANCES } from '../../api/model/checks.js';
import { RESULTS } from '../../api/model/report-model.js';
import { LEVELS } from '../verdicts/rules.js';
import type { AUDIT_KEYS } from '../commands/audit/config.js';
import { EXISTING_MODES } from '../commands/reports/create/existing.js';

export function assertionsSchema(): Record<string, unknown> {
  const level = { $ref: '#/$defs/level' };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rsapi.dev/schema/rsapi.config.schema.json',
    title: 'rsapi configuration (rsapi.config.json): assertions and the weekly audit',
    description:
      'assert: rules that `rsapi reports list|create|stats --assert` (and `rsapi audit`) judge every report by; every rule whose glob matches applies, a later one wins per key. audit: what `rsapi audit` audits, records and fails on.',
    type: 'object',
    properties: {
      $schema: { type: 'string' },
      assert: { type: 'array', items: { $ref: '#/$defs/rule' }, minItems: 1 },
      audit: { $ref: '#/$defs/audit' },
    },
    anyOf: [{ required: ['assert'] }, { required: ['audit'] }],
    additionalProperties: false,
    $defs: {
      audit: auditSchema(),
      level: {
        enum: [...LEVELS],
        description: 'error: fails the run (exit 10); warn: printed, does not fail; off: not judged',
      },
      rule: {
        type: 'object',
        properties: {
          match: {
            type: 'string',
            description: 'A glob over the report identity (the cleaned URL: example.com/blog/**); ** any path, * one segment. Default **',
            default: '**',
          },
          minScore: { type: 'number', minimum: 0, maximum: 100, description: 'Fail a report scoring below this' },
          result: { enum: [...RESULTS], description: 'The worst result that passes: decent fails a bad report' },
          checks: {
            type: 'object',
            description: 'A level per check id, for a failed check',
            properties: Object.fromEntries(Object.entries(CHECK_NAMES).map(([id, name]) => [id, { ...level, description: name }])),
            additionalProperties: false,
          },
          importance: {
            type: 'object',
            description: "A level for any failed check of this importance (a check's own level wins)",
            properties: Object.fromEntries(IMPORTANCES.map((importance) => [importance, level])),
            additionalProperties: false,
          },
        },
        // A rule asserts something (a match alone, or empty checks, is refused when the file is read).
        anyOf: ['minScore', 'result', 'checks', 'importance'].map((key) => ({ required: [key] })),
        additionalProperties: false,
      },
    },
  };
}

/** The `audit` section: every key may be null (left at its default), as `rsapi audit --init` writes it. */
function auditSchema(): Record<string, unknown> {
  const nullable = (schema: Record<string, unknown>, description: string) => ({ anyOf: [schema, { type: 'null' }], description });
  const strings = (description: string) => nullable({ type: 'array', items: { type: 'string', minLength: 1 } }, description);
  const text = (description: string) => nullable({ type: 'string', minLength: 1 }, description);
  const properties: Record<(typeof AUDIT_KEYS)[number], unknown> = {
    job: text("The job's name: its runs form one history, whatever pages its sitemaps list. Default: the first site's host"),
    sitemaps: strings('Site roots (their robots.txt names the sitemaps) or sitemap URLs, http(s)'),
    urls: strings('Page URLs to audit, besides or instead of the sitemaps'),
    urlFile: text('A file of page URLs, one a line'),
    skipInvalid: nullable(
      { type: 'boolean' },
      'Skip input lines and sitemap entries that are not URLs (the default); a run where more than 10% of the sitemap entries are invalid still fails',
    ),
    allowHosts: strings("Hosts a sitemap may list pages and sitemaps on, beyond its own site's (its host and its www. twin): a name, or host:port"),
    include: strings('Audit only URLs matching one of these globs over the URL as stored (example.com/blog/**)'),
    exclude: strings('Leave out URLs matching one of these globs'),
    maxUrls: nullable({ type: 'integer', minimum: 1 }, 'Audit at most the first N URLs'),
    existing: nullable({ enum: [...EXISTING_MODES] }, 'For a page with a report: refresh it (the default), skip it, or make a new one'),
    resumeWithin: nullable(
      { type: 'string', pattern: '^\\s*\\d+\\s*[mhdw]\\s*$' },
      'How long a killed audit is resumed (30m, 12h, 1d, 2w; default 1d): past it, the pages it audited are audited again',
    ),
    history: text('The history: a SQLite file or a postgres:// URL (default ~/.local/share/rsapi/history.db)'),
    failOnNewFailures: nullable({ type: 'boolean' }, 'Exit 10 when a page fails a check it passed in the last run of the job'),
    maxDrop: nullable({ type: 'number', minimum: 0 }, 'Exit 10 when a score fell by more than this or a result got worse'),
    requireBaseline: nullable(
      { type: 'boolean' },
      "Exit 4 when the job has no earlier run in the history (a history lost), rather than pass as the job's first run",
    ),
    html: text('Write the run as one HTML page'),
    junit: text('Write a JUnit XML file'),
    summary: text('Append a Markdown summary (e.g. $GITHUB_STEP_SUMMARY)'),
    codequality: text("Write GitLab's Code Quality report"),
  };
  return { type: 'object', properties, additionalProperties: false };
}

/** The file as shipped: two-space JSON and a final newline. */
export function assertionsSchemaText(): string {
  return `${JSON.stringify(assertionsSchema(), null, 2)}\n`;
}
