// The `audit` section of rsapi.config.json: read before any request, every key checked, and a mistake refused with
// the file's name, the line and the nearest right word (as the `assert` rules beside it are).
import { isObject } from '../../../api/model/record.js';
import { hasTerminalControls } from '../../../output/terminal-text.js';
import { reportUrlProblem } from '../../../api/model/report-url.js';
import { globProblem } from '../../../url-glob.js';
import { durationMs } from '../../flags/history-values.js';
import { FILE_KEYS } from '../../verdicts/assertions-file.js';
import { parseJsonFileWithLines, readJsonFile, refuseUnknownKeys } from '../../verdicts/json-lines.js';
import { EXISTING_MODES, type ExistingMode } from '../reports/create/existing.js';
import { allowedHost } from '../reports/create/sitemap/site.js';

/** The keys of the section: the JSON Schema (schema/rsapi.config.schema.json) is held to these by a test. */
export const AUDIT_KEYS = [
  'job',
  'sitemaps',
  'urls',
  'urlFile',
  'skipInvalid',
  'allowHosts',
  'include',
  'exclude',
  'maxUrls',
  'existing',
  'resumeWithin',
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
  /** Skip input lines and sitemap entries that are not URLs (default true for an audit). */
  skipInvalid?: boolean;
  /** Hosts a sitemap may lead to beyond its own site's (--allow-host). */
  allowHosts?: string[];
  include?: string[];
  exclude?: string[];
  maxUrls?: number;
  existing?: ExistingMode;
  /** How long a killed audit's journal is resumed (ms, from a duration such as "1d"): older pages are audited again. */
  resumeWithin?: number;
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
  // The file's other keys too: `"asserts"` for `"assert"` would turn every assertion off, silently.
  if (isObject(whole)) refuseUnknownKeys(whole, FILE_KEYS, '', refuse);
  if (!isObject(whole) || !isObject(whole.audit)) {
    throw refuse(
      isObject(whole) && whole.audit !== undefined ? 'audit' : '',
      'the file holds no "audit" section: { "audit": { "sitemaps": [ ... ] } }',
      'rsapi audit --init URL writes one',
    );
  }
  const section = whole.audit;
  const at = (key: string) => `audit.${key}`;
  refuseUnknownKeys(section, AUDIT_KEYS, 'audit', refuse, 'audit');
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
  const resumeWithin = text_('resumeWithin');
  const resumeWithinMs = resumeWithin === undefined ? undefined : durationMs(resumeWithin);
  if (resumeWithin !== undefined && resumeWithinMs === undefined)
    throw refuse(at('resumeWithin'), '"resumeWithin" must be a duration such as "1d", "12h" or "30m"');
  const webUrl = (item: string) => (/^https?:\/\//i.test(item) ? reportUrlProblem(item) : 'is not an http(s) URL');
  const job = text_('job');
  if (job !== undefined && (job.length > 200 || hasTerminalControls(job))) {
    throw refuse(at('job'), '"job" must be 1 to 200 printable characters (no control character nor bidirectional override)');
  }
  const audit: AuditConfig = {
    job,
    sitemaps: list('sitemaps', (item) => (/^https?:\/\//i.test(item) ? reportUrlProblem(item) : 'is not an http(s) URL (a site root or a sitemap)')),
    urls: list('urls', webUrl),
    urlFile: text_('urlFile'),
    skipInvalid: flag('skipInvalid'),
    allowHosts: list('allowHosts', hostProblem),
    include: list('include', globProblem),
    exclude: list('exclude', globProblem),
    maxUrls: number('maxUrls', 1, true),
    existing: existing as ExistingMode | undefined,
    resumeWithin: resumeWithinMs,
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

/** Why an `allowHosts` item is no host, or undefined. */
function hostProblem(item: string): string | undefined {
  try {
    allowedHost(item);
    return undefined;
  } catch {
    return 'is not a host: give a name or address, with a port or not (cdn.example.com, localhost:8080)';
  }
}
