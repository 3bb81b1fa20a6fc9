// The reports endpoints, typed: list, show, create (safe against duplicates), update, delete.
import { decodePage, decodeRecord, type ApiRecord, type Page } from './decode.js';
import { NotFoundError } from './errors.js';
import { HttpClient, isAmbiguousFailure, pathSegment, type Params } from './http.js';
import { iteratePages, type PagingOptions } from './paging.js';

export const RESULTS = ['good', 'decent', 'bad'] as const;
export type ReportResult = (typeof RESULTS)[number];
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

export interface ReportListParams {
  search?: string;
  searchBy?: 'url';
  project?: string;
  result?: ReportResult;
  sortBy?: ReportSortField;
  sort?: SortDirection;
  perPage?: PerPage;
}

export interface ReportCreateInput {
  url: string;
  privacy?: Privacy;
  password?: string;
}

export interface ReportUpdateInput {
  privacy?: Privacy;
  password?: string;
  /** Sends update=1: the service regenerates the report. */
  refresh?: boolean;
}

export interface CreateResult {
  report: ApiRecord;
  /** True when an attempt's answer was lost and the report was found by looking it up. */
  recovered: boolean;
  attempts: number;
}

export interface DeleteResult {
  /** True when a retried DELETE met 404: an earlier attempt had deleted it. */
  goneAfterRetry: boolean;
}

/**
 * How far a created report's timestamp may precede our request, on the service's clock as its Date
 * headers give it, and still count as ours: the service may store times truncated to the second.
 */
const TIMESTAMP_SLACK_MS = 1_000;
/** The same, when the service sends no Date header and our own clock must do (clock skew). */
const CLOCK_SKEW_MS = 120_000;
/** The look-up pages through the URL search (a substring match) newest first, this far at most. */
const LOOKUP_PER_PAGE = 100;
const LOOKUP_MAX_PAGES = 10;

export class ReportsApi {
  constructor(
    private readonly http: HttpClient,
    private readonly createTimeoutMs: number,
  ) {}

  async list(params: ReportListParams = {}, page = 1): Promise<Page> {
    const req = { method: 'GET' as const, path: '/reports', query: { ...listQuery(params), page: page === 1 ? undefined : page } };
    const response = await this.http.request(req);
    return decodePage(response.body, page, params.perPage ?? DEFAULT_PER_PAGE, HttpClient.describe(req));
  }

  pages(params: ReportListParams = {}, paging: PagingOptions = {}): AsyncGenerator<Page> {
    return iteratePages((page) => this.list(params, page), paging);
  }

  async show(id: string): Promise<ApiRecord> {
    const req = { method: 'GET' as const, path: `/reports/${pathSegment(id)}` };
    const response = await this.http.request(req);
    return decodeRecord(response.body, HttpClient.describe(req));
  }

  /**
   * Creates one report. POST is not idempotent, so after an ambiguous failure (timeout, reset after
   * sending, 502/503/504) it looks for the report first and sends again only if it is not there.
   * The last attempt's ambiguous failure is looked up too: the report may exist all the same.
   */
  async create(input: ReportCreateInput): Promise<CreateResult> {
    const retries = this.http.options.retries;
    const form: Params = { url: input.url, privacy: input.privacy, password: input.password };
    const req = { method: 'POST' as const, path: '/reports', form, timeoutMs: this.createTimeoutMs };
    const sentAt = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await this.http.request(req);
        return { report: decodeRecord(response.body, HttpClient.describe(req)), recovered: false, attempts: attempt };
      } catch (error) {
        if (!isAmbiguousFailure(error)) throw error;
        const found = await this.findCreated(input.url, sentAt);
        if (found) return { report: found, recovered: true, attempts: attempt };
        if (attempt > retries) throw error;
      }
    }
  }

  /**
   * The newest report for exactly this URL created since `sentAt` (ms, our clock: when the request
   * that may have created it was first sent), if any. Timestamps are compared on the service's clock,
   * known from the look-up's own Date header, so a report made a minute earlier is not taken for ours.
   * The search is a substring match (…/page/1 also finds …/page/10), so it pages on, newest first,
   * until it meets an older report or the end.
   */
  async findCreated(url: string, sentAt: number): Promise<ApiRecord | undefined> {
    const params: ReportListParams = { search: url, searchBy: 'url', sortBy: 'id', sort: 'desc', perPage: LOOKUP_PER_PAGE };
    for await (const page of this.pages(params, { all: true })) {
      const onServiceClock = this.http.toServiceTime(sentAt);
      const since = onServiceClock === undefined ? sentAt - CLOCK_SKEW_MS : onServiceClock - TIMESTAMP_SLACK_MS;
      const found = page.records.find((record) => record.url === url && createdSince(record, since));
      if (found) return found;
      if (page.page >= LOOKUP_MAX_PAGES || page.records.some((record) => !createdSince(record, since))) return undefined;
    }
    return undefined;
  }

  async update(id: string, input: ReportUpdateInput): Promise<ApiRecord> {
    const form: Params = { privacy: input.privacy, password: input.password, update: input.refresh ? 1 : undefined };
    const req = { method: 'PATCH' as const, path: `/reports/${pathSegment(id)}`, form };
    const response = await this.http.request(req);
    return decodeRecord(response.body, HttpClient.describe(req));
  }

  async delete(id: string): Promise<DeleteResult> {
    const response = await this.http.request({ method: 'DELETE', path: `/reports/${pathSegment(id)}` });
    return { goneAfterRetry: response.goneAfterRetry === true };
  }
}

function listQuery(params: ReportListParams): Params {
  return {
    search: params.search,
    search_by: params.searchBy,
    project: params.project,
    result: params.result,
    sort_by: params.sortBy,
    sort: params.sort,
    per_page: params.perPage,
  };
}

/** A record without any timestamp cannot be placed in time: take it as ours rather than create a duplicate. */
function createdSince(record: ApiRecord, since: number): boolean {
  const stamp = record.created_at ?? record.generated_at;
  if (typeof stamp !== 'string') return true;
  const time = Date.parse(stamp);
  return Number.isNaN(time) || time >= since;
}

