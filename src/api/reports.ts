// The reports endpoints, typed: list, show, create (safe against duplicates: create/recovery.ts), update, delete.
import { decodePage, decodeRecord } from './http/decode.js';
import type { ApiRecord, Page } from './model/record.js';
import { AuthError, HiddenRecordError, InterruptedError, NotFoundError } from './errors.js';
import { HttpClient, pathSegment, type HttpResponse, type Params } from './http/http.js';
import { iteratePages, withPageSize, type PageFetcher, type PagingOptions } from './http/paging.js';
import { CreateRecovery, type CreateOptions, type CreateResult, type EarlierAttempt, type ReportCreateInput, type SentCreate } from './create/recovery.js';
import { DEFAULT_PER_PAGE, type Privacy, type ReportListParams, type ReportSortField } from './list-params.js';
import { RESULTS, type ReportResult } from './model/report-model.js';
import { timestampOf } from './model/timestamps.js';
import { scoreSortedPages, type ScoreSortField } from './model/score-sort.js';

export { RESULTS, type ReportResult };
export * from './list-params.js';
export type { CreateOptions, CreateResult, EarlierAttempt, MatchedBy, ReportCreateInput } from './create/recovery.js';

export interface ReportUpdateInput {
  privacy?: Privacy;
  password?: string;
  /** Sends update=1 and results=1 (phpRank's name): the service audits the page again. */
  refresh?: boolean;
}

export interface UpdateResult {
  report: ApiRecord;
  /** With a refresh: false when the report's generated_at did not move (the service did not audit again); undefined when not known. */
  reaudited?: boolean;
}

export interface DeleteResult {
  /** True when a retried DELETE met 404: an earlier attempt had deleted it. */
  goneAfterRetry: boolean;
}

export class ReportsApi {
  private readonly recovery: CreateRecovery;

  constructor(
    private readonly http: HttpClient,
    /** How long a create waits for its answer (a bulk run writes it in its journal, for a resume's watch). */
    readonly createTimeoutMs: number,
  ) {
    this.recovery = new CreateRecovery(http, createTimeoutMs, (params, paging) => this.pages(params, paging));
  }

  /** One page; `page` is sent unless it is the first one left implicit (`sendPage` false). */
  list(params: ReportListParams = {}, page = 1, sendPage = page !== 1): Promise<Page> {
    return this.pageFetcher(params, () => sendPage)(page);
  }

  /**
   * Pages of the list, from `paging.startPage` (a start page the caller gave is sent, `page=1` included). Following
   * pages (`all` or `limit`) without a page size asks for the largest, so fewer requests; when the service tells the
   * number of pages, a few are fetched at a time (paging.ts).
   */
  pages(params: ReportListParams = {}, paging: PagingOptions = {}): AsyncGenerator<Page> {
    const asked = withPageSize(params, paging);
    return iteratePages(
      this.pageFetcher(asked, (page) => page !== 1 || paging.startPage !== undefined),
      paging,
    );
  }

  /** The pages of `params`, one request each; a sort by score is sent as the service names it (score-sort.ts). */
  private pageFetcher(params: ReportListParams, sendPage: (page: number) => boolean): PageFetcher {
    const fetch = (sortBy: ReportSortField | ScoreSortField | undefined, page: number) => this.listSortedAs(params, sortBy, page, sendPage(page));
    return params.sortBy === 'score' ? scoreSortedPages(fetch) : (page) => fetch(params.sortBy, page);
  }

  /** One page, its sort field sent as `sortBy` (phpRank's `result` for a score sort) rather than as `params` name it. */
  private async listSortedAs(params: ReportListParams, sortBy: ReportSortField | ScoreSortField | undefined, page: number, sendPage: boolean): Promise<Page> {
    const query = { ...listQuery(params), sort_by: sortBy, page: sendPage ? page : undefined };
    const req = { method: 'GET' as const, path: '/reports', query };
    const response = await this.http.request(req);
    return decodePage(response.body, page, params.perPage ?? DEFAULT_PER_PAGE, HttpClient.describe(req));
  }

  async show(id: string): Promise<ApiRecord> {
    const req = { method: 'GET' as const, path: `/reports/${pathSegment(id)}` };
    const response = await this.http.request(req);
    return decodeRecord(response.body, HttpClient.describe(req));
  }

  /**
   * Creates one report, never twice: a POST whose answer was lost is looked up, and watched for, before it may be
   * sent again (create/recovery.ts).
   */
  create(input: ReportCreateInput, options: CreateOptions = {}, earlier?: Pick<SentCreate, 'sentAt' | 'newestIdBefore'>): Promise<CreateResult> {
    return this.recovery.create(input, options, earlier);
  }

  /** Resumes a URL an earlier run left unsettled: sent only if its report is surely not stored (create/recovery.ts). */
  createUnlessStored(input: ReportCreateInput, earlier: EarlierAttempt, options: CreateOptions = {}): Promise<CreateResult> {
    return this.recovery.createUnlessStored(input, earlier, options);
  }

  /**
   * Changes a report. A refresh sends `update=1` and `results=1` (phpRank's name for it) and reads the report
   * first, to tell whether its generated_at moved. A 403 on the change (phpRank's answer for a report that does
   * not exist as for another account's) is settled by reading the report: HiddenRecordError says which.
   */
  async update(id: string, input: ReportUpdateInput): Promise<UpdateResult> {
    const before = input.refresh ? await this.show(id) : undefined;
    const refresh = input.refresh ? 1 : undefined;
    const form: Params = { privacy: input.privacy, password: input.password, update: refresh, results: refresh };
    const req = { method: 'PATCH' as const, path: `/reports/${pathSegment(id)}`, form };
    let response: HttpResponse;
    try {
      response = await this.http.request(req);
    } catch (error) {
      throw await this.settleRefusal(error, id, before !== undefined);
    }
    const report = decodeRecord(response.body, HttpClient.describe(req));
    return { report, reaudited: before === undefined ? undefined : generatedAtMoved(before, report) };
  }

  /** The error to throw for a failed change: a 403 on the report becomes a HiddenRecordError once a read tells whether it exists. */
  private async settleRefusal(error: unknown, id: string, seen: boolean): Promise<unknown> {
    if (!(error instanceof AuthError) || error.refusal !== 'record') return error;
    const lookUp = { method: 'GET', path: `/reports/${pathSegment(id)}` };
    if (seen) return new HiddenRecordError(error, true, lookUp);
    try {
      await this.show(id);
      return new HiddenRecordError(error, true, lookUp);
    } catch (lookUpError) {
      if (lookUpError instanceof NotFoundError) return new HiddenRecordError(error, false, lookUp);
      // Refused too (a plan without API access), unreachable, interrupted: it stays "no such report, or not yours".
      return lookUpError instanceof InterruptedError ? lookUpError : error;
    }
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

/** Whether generated_at differs between two versions of a report; undefined when either has none. */
function generatedAtMoved(before: ApiRecord, after: ApiRecord): boolean | undefined {
  const [was, is] = [before.generated_at, after.generated_at];
  if (typeof was !== 'string' || typeof is !== 'string') return undefined;
  const [wasTime, isTime] = [timestampOf(was), timestampOf(is)];
  return wasTime === undefined || isTime === undefined ? was !== is : wasTime !== isTime;
}
