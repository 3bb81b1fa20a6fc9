// `--include`, `--exclude` and `--max-urls` of `reports create`: which of the input's URLs a run sends (globs over the identity).
import { reportIdentity } from '../../../../api/model/report-url.js';
import { compileUrlGlob, type UrlGlob } from '../../../../url-glob.js';
import { plural } from '../../../../plural.js';

export interface UrlSelection {
  include?: string[];
  exclude?: string[];
  maxUrls?: number;
}

/** The selection with its globs compiled, as the plan holds it. */
export interface CompiledSelection {
  include: UrlGlob[];
  exclude: UrlGlob[];
  maxUrls?: number;
}

/** The globs compiled (a bad one is a usage error: the plan calls it). */
export function compileSelection(selection: UrlSelection): CompiledSelection {
  return {
    include: (selection.include ?? []).map((pattern) => compileUrlGlob(pattern, '--include')),
    exclude: (selection.exclude ?? []).map((pattern) => compileUrlGlob(pattern, '--exclude')),
    maxUrls: selection.maxUrls,
  };
}

/**
 * The URLs kept, in input order: matching some --include (all, without one) and no --exclude, then the first
 * --max-urls of them; with a line saying what was left out, when anything was.
 */
export function selectUrls(urls: readonly string[], selection: CompiledSelection): { urls: string[]; note?: string } {
  const { include, exclude, maxUrls } = selection;
  const matching = urls.filter((url) => {
    const identity = reportIdentity(url);
    return (include.length === 0 || include.some((glob) => glob(identity))) && !exclude.some((glob) => glob(identity));
  });
  const kept = maxUrls === undefined ? matching : matching.slice(0, maxUrls);
  const left: string[] = [];
  if (matching.length < urls.length) left.push(`${plural(urls.length - matching.length, 'URL')} by --include/--exclude`);
  if (kept.length < matching.length) left.push(`${plural(matching.length - kept.length, 'URL')} past --max-urls ${maxUrls}`);
  return left.length === 0 ? { urls: kept } : { urls: kept, note: `rsapi: ${plural(kept.length, 'URL')} selected; left out ${left.join(' and ')}` };
}
