// The `audit` section of rsapi.config.json: read before any request, every key checked, and a mistake refused with
// the file's name, the line and the nearest right word (as the `assert` rules beside it are).
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isObject } from '../../../api/model/record.js';
import { hasTerminalControls } from '../../../output/terminal-text.js';
import { UsageError } from '../../runtime/errors.js';
import { reportUrlProblem } from '../../../api/model/report-url.js';
import { globProblem } from '../../../url-glob.js';
import { FILE_KEYS } from '../../verdicts/assertions-file.js';
import { parseJsonFileWithLines, readJsonFile, refuseUnknownKeys } from '../../verdicts/json-lines.js';
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
    include: list('include', globProblem),
    exclude: list('exclude', globProblem),
    maxUrls: number('maxUrls', 1, true),
    existing: existing as ExistingMode | undefined,
    history: text_('history'),
    failOnNewFailures: flag('failOnNewFailures'),
    maxDrop: number('maxDrop', 0),
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

/** What `rsapi audit --init URL` writes: the file, the site, the job it names and the schema it points at. */
export interface StarterPlan {
  path: string;
  site: string;
  job: string;
  schema: string;
}

/**
 * Every check of `--init` before anything is written: the site is an http(s) URL a service would take, the file is
 * new (a dangling symbolic link is a file that exists) and its folder is there.
 */
export function planStarter(path: string, site: string): StarterPlan {
  const problem = /^https?:\/\//i.test(site) ? reportUrlProblem(site) : 'is not an http(s) URL';
  if (problem !== undefined) {
    throw new UsageError(`--init ${JSON.stringify(site)} ${problem}`, { hint: "give the site's root or its sitemap as an http(s) URL: https://example.com/" });
  }
  const { lstatSync, statSync } = process.getBuiltinModule('node:fs');
  const there = lstatSync(path, { throwIfNoEntry: false });
  if (there !== undefined) {
    throw new UsageError(`${path} exists${there.isSymbolicLink() ? ' (a symbolic link)' : ''}; rsapi audit --init writes a new file only`, {
      hint: 'add an "audit" section to it by hand, or give --config NEW.json',
    });
  }
  const folder = dirname(resolve(path));
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`cannot write ${path}: there is no folder ${folder}`, { hint: 'create the folder first, or give --config a path in one' });
  }
  return { path, site, job: siteJob(site), schema: schemaReference(path, shippedSchema()) };
}

/**
 * The job a site's root or sitemap names: its host (without `www.`), its port where it has one, and the sitemap's
 * folder where that is not the root. `https://www.example.com/blog/sitemap.xml` is `example.com/blog`, so two
 * sitemaps of one host are two jobs, never one history compared with the other's pages.
 */
export function siteJob(site: string): string {
  const url = new URL(site);
  const folder = url.pathname.slice(0, url.pathname.lastIndexOf('/'));
  return `${url.hostname.replace(/^www\./, '')}${url.port ? `:${url.port}` : ''}${folder}`;
}

/** `rsapi audit --init URL`: a starter file for a site, its every key at its default (or the site's value). */
export function starterFile(starter: Pick<StarterPlan, 'site' | 'job' | 'schema'>): string {
  const audit = {
    job: starter.job,
    sitemaps: [starter.site],
    urls: [],
    urlFile: null,
    include: [],
    exclude: [],
    maxUrls: null,
    existing: 'refresh',
    history: null,
    failOnNewFailures: true,
    maxDrop: null,
    html: 'audit.html',
    junit: null,
    summary: null,
    codequality: null,
  };
  return `${JSON.stringify({ $schema: starter.schema, audit }, null, 2)}\n`;
}

/** The schema a starter file names, as the package ships it: found from this module's own place (dist/ or src/). */
function shippedSchema(): string | undefined {
  const { existsSync } = process.getBuiltinModule('node:fs');
  for (let folder = dirname(fileURLToPath(import.meta.url)); ; folder = dirname(folder)) {
    const schema = join(folder, 'schema', SCHEMA_FILE);
    if (existsSync(schema)) return schema;
    if (dirname(folder) === folder) return undefined;
  }
}

const SCHEMA_FILE = 'rsapi.config.schema.json';

/**
 * How the config at `configPath` names the schema so that it resolves: from a project's own install (a node_modules
 * in the config's folder or above it) a path relative to the config, true in every clone of the project; from any
 * other install (global, npx, a checkout) its absolute file URL, true on this machine wherever the config lies.
 */
export function schemaReference(configPath: string, schema: string | undefined): string {
  if (schema === undefined) return `https://rsapi.dev/schema/${SCHEMA_FILE}`;
  const folder = realFolder(dirname(resolve(configPath)));
  const modules = schema.lastIndexOf(`${sep}node_modules${sep}`);
  const project = modules < 0 ? undefined : schema.slice(0, modules);
  if (project !== undefined && (folder === project || folder.startsWith(`${project}${sep}`))) {
    const path = relative(folder, schema).split(sep).join('/');
    return path.startsWith('.') ? path : `./${path}`;
  }
  return pathToFileURL(schema).href;
}

/** A folder as the file system names it (a temp folder behind a symbolic link), or as given when it is not there. */
function realFolder(folder: string): string {
  try {
    return process.getBuiltinModule('node:fs').realpathSync(folder);
  } catch {
    return folder;
  }
}
