// A gate over nothing: the line that says no report matched (and what was asked), and the nearest project the
// service has when --project or --search matched nothing, found with one look-up.
import { isObject } from '../../api/model/record.js';
import { projectName } from '../../api/model/report-url.js';
import { nearest } from '../../suggest.js';
import type { CommandContext } from '../runtime/context.js';

/** What chose the reports, to name in the line and to look a near project up for. */
export interface Selection {
  project?: string;
  search?: string;
  /** Other words for what was asked (`the URLs of urls.txt`), when no filter names it. */
  what?: string;
  /** Why there was nothing to judge, when the input itself was empty (`the sitemap listed no page`). */
  nothing?: string;
}

/** `rsapi: gate failed: no reports matched --project exmaple.com: a gate over nothing proves nothing`. */
export function emptyLine(selection: Selection | undefined): string {
  if (selection?.nothing !== undefined) return `rsapi: gate failed: ${overNothing(selection.nothing)}`;
  const asked = [
    selection?.project !== undefined ? `--project ${selection.project}` : undefined,
    selection?.search !== undefined ? `--search ${selection.search}` : undefined,
  ].filter(Boolean);
  const what = asked.length > 0 ? asked.join(' ') : (selection?.what ?? 'the selection');
  return `rsapi: gate failed: ${overNothing(`no reports matched ${what}`)}`;
}

/** `WHY: a gate over nothing proves nothing (--allow-empty lets it pass)`: the one wording of a gate over nothing. */
export function overNothing(why: string): string {
  return `${why}: a gate over nothing proves nothing (--allow-empty lets it pass)`;
}

/**
 * The project of the service nearest to what --project (or the host in --search) named, from one page of the largest
 * size: undefined when none is near, or when the look-up fails (it only adds a hint).
 */
export async function nearestProject(ctx: CommandContext, selection: Selection | undefined): Promise<string | undefined> {
  const wanted = selection?.project ?? selection?.search?.replace(/^[a-z]+:\/\//i, '').split(/[/?#]/)[0];
  if (wanted === undefined || wanted.trim() === '') return undefined;
  try {
    const page = await ctx.client().projects.list({ perPage: 100, sortBy: 'project' });
    const names = page.records.flatMap((record) => (isObject(record) && typeof record.project === 'string' ? [record.project] : []));
    const near = nearest(projectName(wanted), names);
    return near !== undefined && projectName(near) !== projectName(wanted) ? near : undefined;
  } catch {
    return undefined;
  }
}
