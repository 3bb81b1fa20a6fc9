// The list endpoints' logic: query validation, search and filters, sorting, and paging into the three envelopes.

import type { MockProject, ReportResource, ReportResult } from './data.js';
import { FieldErrors, optionalOneOf, optionalPositiveInteger, presentValue, type Input, type Validated } from './validation.js';

/** `unpaged`: the whole list as one bare array, whatever page and per_page ask (a service that does not page). */
export type Envelope = 'length-aware' | 'simple' | 'bare' | 'unpaged';
export type SortDirection = 'asc' | 'desc';

export const PER_PAGE_VALUES = ['10', '25', '50', '100'] as const;
export const SORT_DIRECTIONS = ['desc', 'asc'] as const;
const RESULTS = ['good', 'decent', 'bad'] as const;
const REPORT_SORT_FIELDS = ['id', 'generated_at', 'url', 'score'] as const;
const PROJECT_SORT_FIELDS = ['created_at', 'project'] as const;

export interface PageSelection {
  page: number;
  perPage: number;
}

interface Ordering<Field extends string> {
  sortBy: Field;
  direction: SortDirection;
}

export interface ReportListQuery extends PageSelection, Ordering<(typeof REPORT_SORT_FIELDS)[number]> {
  search?: string;
  project?: string;
  result?: ReportResult;
}

export interface ProjectListQuery extends PageSelection, Ordering<(typeof PROJECT_SORT_FIELDS)[number]> {
  search?: string;
}

function readPaging(query: Input, errors: FieldErrors): PageSelection {
  const perPage = optionalOneOf(query, 'per_page', PER_PAGE_VALUES, errors);
  const page = optionalPositiveInteger(query, 'page', errors);
  return { perPage: Number(perPage ?? '10'), page: page ?? 1 };
}

function readDirection(query: Input, errors: FieldErrors): SortDirection {
  return optionalOneOf(query, 'sort', SORT_DIRECTIONS, errors) ?? 'desc';
}

/** Optional text: present only when non-empty, as Laravel would see it. */
function optionalText(query: Input, field: string): { [key: string]: string } {
  const value = presentValue(query, field);
  return value === undefined ? {} : { [field]: value };
}

export function validateReportQuery(query: Input): Validated<ReportListQuery> {
  const errors = new FieldErrors();
  optionalOneOf(query, 'search_by', ['url'] as const, errors);
  const result = optionalOneOf(query, 'result', RESULTS, errors);
  const sortBy = optionalOneOf(query, 'sort_by', REPORT_SORT_FIELDS, errors) ?? 'id';
  const direction = readDirection(query, errors);
  const paging = readPaging(query, errors);
  if (!errors.isEmpty) return { ok: false, errors };
  return {
    ok: true,
    value: { ...optionalText(query, 'search'), ...optionalText(query, 'project'), ...(result ? { result } : {}), sortBy, direction, ...paging },
  };
}

export function validateProjectQuery(query: Input): Validated<ProjectListQuery> {
  const errors = new FieldErrors();
  optionalOneOf(query, 'search_by', ['project'] as const, errors);
  const sortBy = optionalOneOf(query, 'sort_by', PROJECT_SORT_FIELDS, errors) ?? 'created_at';
  const direction = readDirection(query, errors);
  const paging = readPaging(query, errors);
  if (!errors.isEmpty) return { ok: false, errors };
  return { ok: true, value: { ...optionalText(query, 'search'), sortBy, direction, ...paging } };
}

function containsIgnoringCase(text: string, fragment: string): boolean {
  return text.toLowerCase().includes(fragment.toLowerCase());
}

function compareValues(left: string | number, right: string | number): number {
  if (left < right) return -1;
  if (left > right) return 1;
  return 0;
}

/** Orders by one field, ties broken by a second key in the same direction, so asc is exactly desc reversed. */
function sortRecords<T>(records: T[], primary: (record: T) => string | number, tieBreak: (record: T) => string | number, direction: SortDirection): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...records].sort((left, right) => sign * (compareValues(primary(left), primary(right)) || compareValues(tieBreak(left), tieBreak(right))));
}

export function selectReports<T extends ReportResource>(reports: T[], query: ReportListQuery): T[] {
  const matching = reports.filter(
    (report) =>
      (query.search === undefined || containsIgnoringCase(report.url, query.search)) &&
      (query.project === undefined || report.project === query.project) &&
      (query.result === undefined || report.result === query.result),
  );
  return sortRecords(
    matching,
    (report) => report[query.sortBy],
    (report) => report.id,
    query.direction,
  );
}

export function selectProjects<T extends MockProject>(projects: T[], query: ProjectListQuery): T[] {
  const matching = projects.filter((project) => query.search === undefined || containsIgnoringCase(project.project, query.search));
  return sortRecords(
    matching,
    (project) => project[query.sortBy],
    (project) => project.project,
    query.direction,
  );
}

/** Where the list lives and the query it was asked with, so page links keep the other parameters. */
export interface ListLocation {
  path: string;
  query: Input;
}

function pageUrl(location: ListLocation, page: number): string {
  const params = new URLSearchParams(Object.entries(location.query).filter(([name]) => name !== 'page'));
  params.set('page', String(page));
  return `${location.path}?${params.toString()}`;
}

interface PageWindow<T> {
  items: T[];
  from: number | null;
  to: number | null;
  hasMore: boolean;
}

function pageWindow<T>(records: T[], paging: PageSelection): PageWindow<T> {
  const start = (paging.page - 1) * paging.perPage;
  const items = records.slice(start, start + paging.perPage);
  const from = items.length > 0 ? start + 1 : null;
  return { items, from, to: from === null ? null : start + items.length, hasMore: records.length > start + paging.perPage };
}

/** One page of `records` (already filtered and sorted) in the requested envelope, each record as `render` shows it. */
export function pageBody<T>(
  records: T[],
  paging: PageSelection,
  envelope: Envelope,
  location: ListLocation,
  render: (record: T) => unknown = (record) => record,
): unknown {
  if (envelope === 'unpaged') return records.map(render);
  const window = pageWindow(records, paging);
  const items = window.items.map(render);
  if (envelope === 'bare') return items;
  const prev = paging.page > 1 ? pageUrl(location, paging.page - 1) : null;
  const next = window.hasMore ? pageUrl(location, paging.page + 1) : null;
  const common = { current_page: paging.page, from: window.from, path: location.path, per_page: paging.perPage, to: window.to };
  if (envelope === 'simple') {
    return { data: items, links: { first: pageUrl(location, 1), prev, next }, meta: common };
  }
  const lastPage = Math.max(1, Math.ceil(records.length / paging.perPage));
  return {
    data: items,
    links: { first: pageUrl(location, 1), last: pageUrl(location, lastPage), prev, next },
    meta: {
      current_page: paging.page,
      from: window.from,
      last_page: lastPage,
      path: location.path,
      per_page: paging.perPage,
      to: window.to,
      total: records.length,
    },
  };
}
