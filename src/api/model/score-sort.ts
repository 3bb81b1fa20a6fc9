// A list sorted by score in either dialect: the seed API's `sort_by=score`, phpRank's `sort_by=result`, told by the first answer.
import type { ApiRecord, Page } from './record.js';
import type { PageFetcher } from '../http/paging.js';
import { readReport } from './report-model.js';

/** How each dialect names a sort by score: the API document `score`; phpRank `result` (its result is the score). */
export type ScoreSortField = 'score' | 'result';

/**
 * The pages of a list sorted by score. phpRank (1.x-13) ignores `sort_by=score` and sorts by id, but sorts by
 * `result`, which is its score; the seed API has no `result` sort. Nothing before the first answer tells which
 * service this is (no setting holds it, and a probe would cost the request it saves), so the first page is asked
 * with `score`; when its records are phpRank's, that page is asked again with `result`, as is every page after it.
 * A page fetched with `score` from phpRank is in id order, not just another order: a page holding other records.
 */
export function scoreSortedPages(fetch: (sortBy: ScoreSortField, page: number) => Promise<Page>): PageFetcher {
  let field: Promise<ScoreSortField> | undefined;
  return async (page) => {
    if (field) return fetch(await field, page);
    const first = fetch('score', page);
    field = first.then(
      (answer) => (answer.records.some(isPhprankReport) ? 'result' : 'score'),
      () => 'score',
    );
    return (await field) === 'score' ? first : fetch('result', page);
  };
}

function isPhprankReport(record: ApiRecord): boolean {
  return readReport(record).dialect === 'phprank';
}
