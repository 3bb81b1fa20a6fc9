// What goes with a project when it is deleted: its report count (as the projects list tells) and a few of its report URLs.
import { plural } from '../../plural.js';
import type { ApiClient } from '../../api/client.js';
import { RsapiError } from '../../api/errors.js';
import { ExitCode, exitCodeOf } from '../runtime/exit-codes.js';
import { toNumber } from '../../api/model/record.js';
import { andMore } from '../../output/capped-list.js';

/** URLs shown under a project in a confirmation or a dry run; the rest are counted. */
const URLS_SHOWN = 5;
/** More projects than this in one run: no look-ups at all (a confirmation is not worth many requests). */
export const PREVIEW_MAX_PROJECTS = 10;

export interface ProjectPreview {
  /** Reports that go with the project, when the service tells. */
  reports?: number;
  /** Some of their URLs (up to URLS_SHOWN), when one request can tell. */
  urls: string[];
  /**
   * Whether the service knows the project: listed, or holding a report. false only when both look-ups answered and
   * neither found it (its DELETE would answer 404); undefined when a look-up failed.
   */
  exists?: boolean;
}

/**
 * Two read requests a project: the projects list searched by its name (for `reports_count` or any `*_count` naming
 * reports) and one page of its reports. A look-up that fails only leaves the preview empty, unless `strict` (a dry
 * run, which must not guess): then its error ends the run. Ctrl-C always stops.
 */
export async function previewProject(client: ApiClient, name: string, options: { strict?: boolean } = {}): Promise<ProjectPreview> {
  const preview: ProjectPreview = { urls: [] };
  const lookUp = options.strict ? (work: () => Promise<void>) => work() : quietly;
  let listed: boolean | undefined;
  let holdsReports: boolean | undefined;
  await Promise.all([
    lookUp(async () => {
      const page = await client.projects.list({ search: name, searchBy: 'project', perPage: 100 });
      const project = page.records.find((record) => record.project === name);
      listed = project !== undefined;
      if (project) preview.reports = reportCount(project);
    }),
    lookUp(async () => {
      const page = await client.reports.list({ project: name, perPage: 10 });
      const own = page.records.filter((record) => record.project === undefined || record.project === name);
      holdsReports = own.length > 0;
      preview.urls = own.flatMap((record) => (typeof record.url === 'string' ? [record.url] : [])).slice(0, URLS_SHOWN);
      if (preview.reports === undefined && page.total !== undefined) preview.reports = page.total;
    }),
  ]);
  preview.exists = listed === true || holdsReports === true ? true : listed === false && holdsReports === false ? false : undefined;
  return preview;
}

/** `reports_count`, `report_count`, `reports`: the first count field that names reports, or a bare `count`. */
function reportCount(project: Record<string, unknown>): number | undefined {
  const key = Object.keys(project).find((field) => /^reports?(_count)?$/.test(field) || /^(count|reports?_total|total_reports)$/.test(field));
  const value = key === undefined ? undefined : toNumber(project[key]);
  return value !== undefined && Number.isInteger(value) && value >= 0 ? value : undefined;
}

async function quietly(lookUp: () => Promise<void>): Promise<void> {
  try {
    await lookUp();
  } catch (error) {
    if (error instanceof RsapiError && exitCodeOf(error) !== ExitCode.interrupted) return;
    throw error;
  }
}

/** `example.com and its 13 reports`, or just the name when the count is unknown. */
export function describeProject(name: string, preview: ProjectPreview | undefined): string {
  if (preview?.exists === false) return `project ${name} (not found)`;
  if (preview?.reports === undefined) return `project ${name}`;
  return `project ${name} and its ${plural(preview.reports, 'report')}`;
}

/** `example.com (13 reports)`: the project among several in a confirmation. */
export function projectLabel(name: string, preview: ProjectPreview | undefined): string {
  if (preview?.exists === false) return `${name} (not found)`;
  if (preview?.reports === undefined) return name;
  return `${name} (${plural(preview.reports, 'report')})`;
}

/** The preview's URL lines, indented, with "and N more" when the count says there are more. */
export function previewLines(preview: ProjectPreview | undefined): string[] {
  if (!preview || preview.urls.length === 0) return [];
  const lines = preview.urls.map((url) => `  ${url}`);
  const more = (preview.reports ?? 0) - preview.urls.length;
  if (more > 0) lines.push(`  ${andMore(more)}`);
  return lines;
}
