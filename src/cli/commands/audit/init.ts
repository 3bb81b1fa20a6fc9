// `rsapi audit --init URL`: a starter rsapi.config.json for a site, checked before it is written (the URL, the file,
// its folder), its job named for the site, its $schema pointing at the schema the installed rsapi ships; and a
// warning when the history already holds that job with another site's pages.
import { writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { reportUrlProblem } from '../../../api/model/report-url.js';
import { selectionKey, resolveHistoryLocation } from '../../reading/history-place.js';
import { historyMissing } from '../../../history/location.js';
import type { CommandContext } from '../../runtime/context.js';
import { UsageError } from '../../runtime/errors.js';
import { fileError } from '../../runtime/files.js';
import { DEFAULT_ASSERT_FILE } from '../../verdicts/assertions-file.js';

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
    skipInvalid: true,
    allowHosts: [],
    include: [],
    exclude: [],
    maxUrls: null,
    existing: 'refresh',
    resumeWithin: null,
    history: null,
    failOnNewFailures: true,
    maxDrop: null,
    requireBaseline: false,
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

/** Writes the starter file (planStarter checked it), never over an existing one, and says what to do next. */
export async function writeStarter(ctx: CommandContext, starter: StarterPlan): Promise<void> {
  const { path } = starter;
  try {
    writeFileSync(path, starterFile(starter), { flag: 'wx' });
  } catch (error) {
    throw fileError('write', path, error);
  }
  ctx.note(`rsapi: wrote ${path}: edit it, then run \`rsapi audit${path === DEFAULT_ASSERT_FILE ? '' : ` --config ${path}`}\``);
  const elsewhere = await pageElsewhereUnderJob(ctx, starter).catch(() => undefined);
  if (elsewhere !== undefined) {
    ctx.note(
      `rsapi: warning: the history already holds job "${starter.job}" with pages of another site (${elsewhere.page}, run ${elsewhere.run}); ` +
        `this site's first audit would be compared with them: give the file another "job"`,
    );
  }
}

/**
 * A page of the job's last run that is not under the site (its host, port and folder: the job's own name), when the
 * history (the one an audit of the file would use by default) holds one. A history not there is never made.
 */
async function pageElsewhereUnderJob(ctx: CommandContext, starter: StarterPlan): Promise<{ page: string; run: number } | undefined> {
  const location = resolveHistoryLocation(ctx, {});
  if (historyMissing(location)) return undefined;
  const { openHistory } = await import('../../../history/open.js');
  const store = await openHistory(location, { readOnly: true });
  try {
    const [last] = await store.runs({ selection: selectionKey({ job: starter.job }), completeOnly: true, readReports: true, limit: 1 });
    if (last === undefined) return undefined;
    const prefix = siteJob(starter.site);
    for await (const snapshot of store.eachSnapshotOf(last.id)) {
      const page = snapshot.identity;
      if (page !== prefix && !page.startsWith(`${prefix}/`) && !page.startsWith(`${prefix}?`)) return { page, run: last.id };
    }
    return undefined;
  } finally {
    await store.close();
  }
}
