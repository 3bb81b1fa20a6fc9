// The values a list of reports may be asked for (sort fields, directions, page sizes) and the privacy levels: plain
// constants, apart from the endpoints, so that declaring flags loads no HTTP code.
import type { ReportResult } from './model/report-model.js';

export const REPORT_SORT_FIELDS = ['id', 'generated_at', 'url', 'score'] as const;
export type ReportSortField = (typeof REPORT_SORT_FIELDS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
export const PER_PAGE_VALUES = [10, 25, 50, 100] as const;
export type PerPage = (typeof PER_PAGE_VALUES)[number];
/** The service's page size when per_page is not sent. */
export const DEFAULT_PER_PAGE = 10;
export const PRIVACY = { public: 0, private: 1, password: 2 } as const;
export type Privacy = (typeof PRIVACY)[keyof typeof PRIVACY];

/** What a list of reports may be asked for: a search, a project, a result, a sort, a page size. */
export interface ReportListParams {
  search?: string;
  searchBy?: 'url';
  project?: string;
  result?: ReportResult;
  sortBy?: ReportSortField;
  sort?: SortDirection;
  perPage?: PerPage;
}
