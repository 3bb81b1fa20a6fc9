// The phpRank flavor of the mock: the service as deployed (docs/phprank.md) - its records, envelopes, errors, lenient
// list parameters, re-audit flag, projects grouped by host, `/account`, and how it refuses a key or a plan.

import { seededReports, type MockProject, type MockReport } from './data.js';
import type { MockFlavor, RequestHead } from './flavor.js';
import {
  pageBody,
  selectProjects,
  PER_PAGE_VALUES,
  SORT_DIRECTIONS,
  type PageSelection,
  type ProjectListQuery,
  type ReportListQuery,
  type SortDirection,
} from './listing.js';
import { auditPage, cleanUrlText, driftedAudit, projectOfStoredUrl, storedUrlFor, weightedScore } from './phprank-audit.js';
import {
  decodeSegment,
  dispatchAmong,
  findReportId,
  isApiPath,
  json,
  listLocation,
  selectedReports,
  type Handler,
  type Route,
  type RouteRequest,
  type RouteResponse,
} from './routes.js';
import type { MockOptions } from './options.js';
import type { StorePolicy } from './store.js';
import { FieldErrors, fetchFailure, isWebUrl, optionalPassword, optionalPrivacy, presentValue, type Input } from './validation.js';

const RESOURCE_NOT_FOUND = json(404, { message: 'Resource not found.', status: 404 });
// Raised by the framework (a failed authorisation), hence no `status`.
const UNAUTHORIZED_ACTION = json(403, { message: 'This action is unauthorized.' });
const NO_API_IN_PLAN = json(403, { message: "You don't have access to this feature.", status: 403 });

/** A success: phpRank puts `"status": 200` beside the data of every one (lists included). */
function success(body: object, httpStatus = 200): RouteResponse {
  return json(httpStatus, { ...body, status: 200 });
}

/** A list answer: an array (the bare envelopes) goes as it is; a page gets its `status`. */
function listAnswer(body: unknown): RouteResponse {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? success(body) : json(200, body);
}

function invalid(errors: FieldErrors): RouteResponse {
  return json(422, { message: errors.byField(), status: 422 });
}

interface RenderOptions {
  /** After a create or an update the score comes unrounded, as computed, before the database rounds it. */
  exactScore?: boolean;
  /** A create that did not send `privacy` answers null, before the default is applied. */
  privacySent?: boolean;
}

/** A report as phpRank sends it: `result` is the score, `results` the checks, `password` whether one is set. */
function renderReport(report: MockReport, options: RenderOptions = {}): Record<string, unknown> {
  const checks = report.checks ?? {};
  return {
    id: report.id,
    url: report.url,
    project: report.project,
    result: options.exactScore === true ? weightedScore(checks) : report.score,
    results: checks,
    privacy: options.privacySent === false ? null : report.privacy,
    password: report.password !== undefined,
    generated_at: report.generated_at,
    created_at: report.created_at,
    updated_at: report.updated_at,
  };
}

function pick<T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined {
  return allowed.find((candidate) => candidate === value);
}

/** Unknown values fall back to the defaults: phpRank never refuses a list parameter. */
function lenientPaging(query: Input): PageSelection & { direction: SortDirection } {
  const page = presentValue(query, 'page');
  return {
    perPage: Number(pick(presentValue(query, 'per_page'), PER_PAGE_VALUES) ?? '10'),
    page: page !== undefined && /^\d+$/.test(page) && Number(page) >= 1 ? Number(page) : 1,
    direction: pick(presentValue(query, 'sort'), SORT_DIRECTIONS) ?? 'desc',
  };
}

// phpRank sorts only by id, url and result (the score); any other sort_by is ignored.
const REPORT_SORT_COLUMNS = { id: 'id', url: 'url', result: 'score' } as const;

function reportQuery(query: Input): ReportListQuery {
  const sortBy = pick(presentValue(query, 'sort_by'), ['id', 'url', 'result'] as const) ?? 'id';
  const search = presentValue(query, 'search');
  const project = presentValue(query, 'project');
  const result = presentValue(query, 'result');
  return {
    ...lenientPaging(query),
    sortBy: REPORT_SORT_COLUMNS[sortBy],
    ...(search === undefined ? {} : { search: cleanUrlText(search) }),
    ...(project === undefined ? {} : { project }),
    // Anything but good or decent is taken as bad.
    ...(result === undefined ? {} : { result: pick(result, ['good', 'decent'] as const) ?? 'bad' }),
  };
}

function projectQuery(query: Input): ProjectListQuery {
  const search = presentValue(query, 'search');
  return {
    ...lenientPaging(query),
    sortBy: pick(presentValue(query, 'sort_by'), ['created_at', 'project'] as const) ?? 'created_at',
    ...(search === undefined ? {} : { search }),
  };
}

const listReports: Handler = (request) => {
  const query = reportQuery(request.query);
  const records = selectedReports(request.store, query);
  return listAnswer(pageBody(records, query, request.envelope, listLocation(request), (report) => renderReport(report)));
};

interface NewReport {
  url: string;
  privacy: 0 | 1 | 2 | undefined;
  password: string | undefined;
}

/** A page phpRank cannot fetch (DNS, refused, timeout) is a 422 on `url` carrying cURL's message, as its 1.x-13 do. */
function validateNewReport(form: Input, unreachable: readonly string[]): { ok: true; value: NewReport } | { ok: false; errors: FieldErrors } {
  const errors = new FieldErrors();
  const url = presentValue(form, 'url');
  const failure = url === undefined ? undefined : fetchFailure(url, unreachable);
  if (url === undefined) errors.add('url', 'The url field is required.');
  else if (!isWebUrl(url)) errors.add('url', 'The url must be a valid URL.');
  else if (failure !== undefined) errors.add('url', `${failure} (see https://curl.haxx.se/libcurl/c/libcurl-errors.html) for ${url}`);
  const privacy = optionalPrivacy(form, errors);
  if (!errors.isEmpty || url === undefined) return { ok: false, errors };
  return { ok: true, value: { url, privacy, password: optionalPassword(form) } };
}

const createReport: Handler = (request) => {
  const validated = validateNewReport(request.form, request.unreachable);
  if (!validated.ok) return invalid(validated.errors);
  const { url, privacy, password } = validated.value;
  const report = request.store.createReport({ url, privacy: privacy ?? 0, ...(password === undefined ? {} : { password }) }, request.now);
  const data = renderReport(report, { exactScore: true, privacySent: privacy !== undefined });
  return { ...success({ data }, 201), createdReport: true };
};

const showReport: Handler = (request, [rawId = '']) => {
  const id = findReportId(rawId);
  const report = id === undefined ? undefined : request.store.findReport(id);
  return report === undefined ? RESOURCE_NOT_FOUND : success({ data: renderReport(report) });
};

/** The authorisation runs before the validation: a report the key cannot see is 403 whatever the fields. */
const updateReport: Handler = (request, [rawId = '']) => {
  const id = findReportId(rawId);
  if (id === undefined || request.store.findReport(id) === undefined) return UNAUTHORIZED_ACTION;
  const errors = new FieldErrors();
  const privacy = optionalPrivacy(request.form, errors);
  if (!errors.isEmpty) return invalid(errors);
  const password = optionalPassword(request.form);
  const changes = {
    ...(privacy === undefined ? {} : { privacy }),
    ...(password === undefined ? {} : { password }),
    // phpRank's re-audit flag is `results`; the API document's `update` is ignored.
    regenerate: presentValue(request.form, 'results') === '1',
  };
  const report = request.store.updateReport(id, changes, request.now);
  return report === undefined ? UNAUTHORIZED_ACTION : success({ data: renderReport(report, { exactScore: true }) });
};

const deleteReport: Handler = (request, [rawId = '']) => {
  const id = findReportId(rawId);
  if (id === undefined || !request.store.deleteReport(id)) return RESOURCE_NOT_FOUND;
  return success({ id, object: 'report', deleted: true });
};

interface ProjectGroup extends MockProject {
  scoreSum: number;
}

/** phpRank has no project records: a project is the group of the key's reports on one host. */
function projectGroups(reports: readonly MockReport[]): ProjectGroup[] {
  const groups = new Map<string, ProjectGroup>();
  for (const report of reports) {
    const group = groups.get(report.project);
    if (group === undefined) {
      groups.set(report.project, { project: report.project, created_at: report.created_at, reports_count: 1, scoreSum: report.score });
      continue;
    }
    group.reports_count += 1;
    group.scoreSum += report.score;
    if (report.created_at < group.created_at) group.created_at = report.created_at;
  }
  return [...groups.values()];
}

function renderProject(group: ProjectGroup): Record<string, unknown> {
  // The sum comes from SQL's SUM(), which PHP's PDO hands over as a string.
  return { project: group.project, created_at: group.created_at, reports: group.reports_count, result: String(group.scoreSum) };
}

const listProjects: Handler = (request) => {
  const query = projectQuery(request.query);
  const records = selectProjects(projectGroups(request.store.reports()), query);
  return listAnswer(pageBody(records, query, request.envelope, listLocation(request), renderProject));
};

const deleteProject: Handler = (request, [rawName = '']) => {
  const name = decodeSegment(rawName);
  const hasReports = name !== undefined && request.store.reports().some((report) => report.project === name);
  if (!hasReports || !request.store.deleteProject(name)) return RESOURCE_NOT_FOUND;
  return success({ id: name, object: 'report', deleted: true });
};

/** The account that owns the mock's key (not in the API document; phpRank answers it). */
const showAccount: Handler = () =>
  success({
    data: {
      id: 1,
      name: 'Mock User',
      email: 'mock@example.com',
      locale: 'en',
      timezone: 'UTC',
      plan: { id: 1, name: 'Default', features: { api: true, reports: -1, projects: -1, pdf: true, exports: true } },
      default_privacy: 0,
      created_at: '2025-01-06T09:00:00.000000Z',
    },
  });

// phpRank updates with PUT or PATCH, and some of its versions with POST on the report.
const ROUTES: readonly Route[] = [
  { pattern: ['reports'], handlers: { GET: listReports, HEAD: listReports, POST: createReport } },
  {
    pattern: ['reports', ':id'],
    handlers: { GET: showReport, HEAD: showReport, PUT: updateReport, PATCH: updateReport, POST: updateReport, DELETE: deleteReport },
  },
  { pattern: ['projects'], handlers: { GET: listProjects, HEAD: listProjects } },
  { pattern: ['projects', ':project'], handlers: { DELETE: deleteProject } },
  { pattern: ['account'], handlers: { GET: showAccount, HEAD: showAccount } },
];

function htmlPage(status: number, title: string, body: string): RouteResponse {
  const text = `<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${title}</title></head>\n<body>${body}</body>\n</html>\n`;
  return { status, body: text, contentType: 'text/html; charset=UTF-8' };
}

/** Outside /api/v1 is the web application: its login page, else its HTML 404. */
function webPage(request: RouteRequest): RouteResponse {
  if (request.path === '/login' && (request.method === 'GET' || request.method === 'HEAD')) {
    return htmlPage(200, 'Login - phpRank', '<form method="POST" action="/login"><input name="email"><input name="password" type="password"></form>');
  }
  return htmlPage(404, 'Not Found', '<h1>404 | Not Found</h1>');
}

function dispatch(request: RouteRequest): RouteResponse {
  if (!isApiPath(request.path)) return webPage(request);
  return dispatchAmong(ROUTES, request, () => RESOURCE_NOT_FOUND);
}

/** Laravel answers 401 only to a client that asks for JSON; any other is sent to the login page. */
function refuseKey(head: RequestHead): RouteResponse {
  if (/\/json|\+json/i.test(head.headers['accept'] ?? '')) return json(401, { message: 'Unauthenticated.' });
  const location = `${head.origin}/login`;
  const page = htmlPage(302, `Redirecting to ${location}`, `Redirecting to <a href="${location}">${location}</a>.`);
  return { ...page, headers: { Location: location } };
}

/** phpRank's seed: the seed flavor's reports, stored as phpRank stores them and audited by its checks. */
function seed(count: number): MockReport[] {
  return seededReports(count).map((report) => {
    const url = storedUrlFor(report.url, {});
    return { ...report, url, project: projectOfStoredUrl(url), ...auditPage(url) };
  });
}

function storePolicy(options: MockOptions): StorePolicy {
  const redirects = options.redirects ?? {};
  return {
    seed,
    storedUrl: (sentUrl) => storedUrlFor(sentUrl, redirects),
    projectOf: projectOfStoredUrl,
    audit: auditPage,
    // The audit runs again on the page; it is a function of the URL, so the results come out the same, unless the
    // pages drift (--drift R): then about a share R of the checks flip.
    reaudit: (report) => (options.drift ? driftedAudit(report.url, report.checks, options.drift, report.generated_at) : auditPage(report.url)),
  };
}

export const PHPRANK_FLAVOR: MockFlavor = {
  name: 'phprank',
  title: 'phpRank',
  // A default install throttles the whole API at 60 requests a minute.
  defaultRateLimit: 60,
  storePolicy,
  isGuarded: (head) => isApiPath(head.path),
  refuseKey,
  gate: (options) => (options.planWithoutApi === true ? NO_API_IN_PLAN : undefined),
  dispatch,
};
