// The projects endpoints, typed: list and delete.
import { decodePage } from './http/decode.js';
import type { Page } from './model/record.js';
import { HttpClient, pathSegment } from './http/http.js';
import { iteratePages, withPageSize, type PagingOptions } from './http/paging.js';
import { DEFAULT_PER_PAGE, type PerPage, type SortDirection } from './reports.js';
import type { DeleteResult } from './reports.js';

export const PROJECT_SORT_FIELDS = ['created_at', 'project'] as const;
export type ProjectSortField = (typeof PROJECT_SORT_FIELDS)[number];

export interface ProjectListParams {
  search?: string;
  searchBy?: 'project';
  sortBy?: ProjectSortField;
  sort?: SortDirection;
  perPage?: PerPage;
}

export class ProjectsApi {
  constructor(private readonly http: HttpClient) {}

  /** One page; `page` is sent unless it is the first one left implicit (`sendPage` false). */
  async list(params: ProjectListParams = {}, page = 1, sendPage = page !== 1): Promise<Page> {
    const query = {
      search: params.search,
      search_by: params.searchBy,
      sort_by: params.sortBy,
      sort: params.sort,
      per_page: params.perPage,
      page: sendPage ? page : undefined,
    };
    const req = { method: 'GET' as const, path: '/projects', query };
    const response = await this.http.request(req);
    return decodePage(response.body, page, params.perPage ?? DEFAULT_PER_PAGE, HttpClient.describe(req));
  }

  pages(params: ProjectListParams = {}, paging: PagingOptions = {}): AsyncGenerator<Page> {
    const asked = withPageSize(params, paging);
    return iteratePages((page) => this.list(asked, page, page !== 1 || paging.startPage !== undefined), paging);
  }

  /** The name is sent as one percent-encoded path segment. */
  async delete(name: string): Promise<DeleteResult> {
    const response = await this.http.request({ method: 'DELETE', path: `/projects/${pathSegment(name)}` });
    return { goneAfterRetry: response.goneAfterRetry === true };
  }
}
