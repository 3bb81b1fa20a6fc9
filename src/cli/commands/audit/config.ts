// The `audit` section of rsapi.config.json: read before any request, every key checked, and a mistake refused with
// the file's name, the line and the nearest right word (as the `assert` rules beside it are).
import { isObject } from '../../../api/model/record.js';
import { reportUrlProblem } from '../../../api/model/report-url.js';
import { nearest } from '../../../suggest.js';
import { globProblem } from '../../../url-glob.js';
import { parseJsonFileWithLines, readJsonFile } from '../../verdicts/json-lines.js';
import { EXISTING_MODES, type ExistingMode } from '../reports/create/existing.js';

/** The keys of the section: the JSON Schema (schema/rsapi.config.schema.json) is held to these by a test. */
export const AUDIT_KEYS = [
  'job',
  'sitemaps',
  'urls',
  'urlFile',
  'include',
  'exclude',
  'maxUrls',
  'existing',
  'history',
  'failOnNewFailures',
  'maxDrop',
  'requireBaseline',
  'html',
  'junit',
  'summary',
  'codequality',
] as const;

export interface AuditConfig {
  job?: string;
  /** Site roots (their robots.txt names the sitemaps) or sitemap URLs. */
  sitemaps?: string[];
  urls?: string[];
  urlFile?: string;
  include?: string[];
  exclude?: string[];
  maxUrls?: number;
  existing?: ExistingMode;
  history?: string;
  failOnNewFailures?: boolean;
  maxDrop?: number;
  /** Exit 4 when the job has no earlier run (a history lost), rather than pass as its first run. */
  requireBaseline?: boolean;
  html?: string;
  junit?: string;
  summary?: string;
  codequality?: string;
}

/** The file and its audit section; whether it holds `assert` rules too (the audit judges by them). */
export interface AuditFile {
  path: string;
  audit: AuditConfig;
  hasAssertions: boolean;
}

export function loadAuditFile(path: string): AuditFile {
  return parseAuditFile(readJsonFile(path, 'configuration file', 'write one for your site: rsapi audit --init https://example.com/'), path);
}

/** The audit section of a file's text; `path` names it in messages. */
export function parseAuditFile(text: string, path: string): AuditFile {
  const { whole, refuse } = parseJsonFileWithLines(text, path);
  if (!isObject(whole) || !isObject(whole.audit)) {
    throw refuse(
      isObject(whole) && whole.audit !== undefined ? 'audit' : '',
      'the file holds no "audit" section: { "audit": { "sitemaps": [ ... ] } }',
      'rsapi audit --init URL writes one',
    );
  }
  const section = whole.audit;
  const at = (key: string) => `audit.${key}`;
  for (const key of Object.keys(section)) {
    if (!(AUDIT_KEYS as readonly string[]).includes(key)) {
      const near = nearest(key, AUDIT_KEYS);
      throw refuse(at(key), `unknown key "${key}" in "audit"${near ? `; did you mean "${near}"?` : ''}`);
    }
  }
  // null is a key left at its default (the starter file writes every key so).
  const given = (key: string): unknown => section[key] ?? undefined;
  const text_ = (key: string): string | undefined => {
    const value = given(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '') throw refuse(at(key), `"${key}" must be a non-empty string`);
    return value;
  };
  const list = (key: string, check?: (item: string) => string | undefined): string[] | undefined => {
    const value = given(key);
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) throw refuse(at(key), `"${key}" must be a list of strings: "${key}": [ "..." ]`);
    return value.map((item, index) => {
      if (typeof item !== 'string' || item.trim() === '') throw refuse(`${at(key)}.${index}`, `"${key}" must be a list of non-empty strings`);
      const problem = check?.(item);
      if (problem !== undefined) throw refuse(`${at(key)}.${index}`, `${JSON.stringify(item)} ${problem}`);
      return item;
    });
  };
  const number = (key: string, min: number, whole = false): number | undefined => {
    const value = given(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || (whole && !Number.isInteger(value))) {
      throw refuse(at(key), `"${key}" must be ${whole ? 'a whole number' : 'a number'} of ${min} or more`);
    }
    return value;
  };
  const flag = (key: string): boolean | undefined => {
    const value = given(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') throw refuse(at(key), `"${key}" must be true or false`);
    return value;
  };
  const existing = given('existing');
  if (existing !== undefined && !(EXISTING_MODES as readonly unknown[]).includes(existing)) {
    throw refuse(at('existing'), `"existing" must be one of ${EXISTING_MODES.map((mode) => `"${mode}"`).join(', ')}`);
  }
  const webUrl = (item: string) => (/^https?:\/\//i.test(item) ? reportUrlProblem(item) : 'is not an http(s) URL');
  const audit: AuditConfig = {
    job: text_('job'),
    sitemaps: list('sitemaps', (item) => (/^https?:\/\//i.test(item) ? undefined : 'is not an http(s) URL (a site root or a sitemap)')),
    urls: list('urls', webUrl),
    urlFile: text_('urlFile'),
    include: list('include', globProblem),
    exclude: list('exclude', globProblem),
    maxUrls: number('maxUrls', 1, true),
    existing: existing as ExistingMode | undefined,
    history: text_('history'),
    failOnNewFailures: flag('failOnNewFailures'),
    maxDrop: number('maxDrop', 0),
    requireBaseline: flag('requireBaseline'),
    html: text_('html'),
    junit: text_('junit'),
    summary: text_('summary'),
    codequality: text_('codequality'),
  };
  if ((audit.sitemaps?.length ?? 0) + (audit.urls?.length ?? 0) === 0 && audit.urlFile === undefined) {
    throw refuse('audit', '"audit" names no page: give "sitemaps", "urls" or "urlFile"');
  }
  return { path, audit, hasAssertions: whole.assert !== undefined };
}

/** `rsapi audit --init URL`: a starter file for a site, its every key at its default (or the site's value). */
export function starterFile(site: string, schemaPath: string): string {
  const host = new URL(site).hostname.replace(/^www\./, '');
  const audit = {
    job: host,
    sitemaps: [site],
    urls: [],
    urlFile: null,
    include: [],
    exclude: [],
    maxUrls: null,
    existing: 'refresh',
    history: null,
    failOnNewFailures: true,
    maxDrop: null,
    requireBaseline: false,
    html: 'audit.html',
    junit: null,
    summary: null,
    codequality: null,
  };
  return `${JSON.stringify({ $schema: schemaPath, audit }, null, 2)}\n`;
}
