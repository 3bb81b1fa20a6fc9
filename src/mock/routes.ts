// The mock service's endpoints: which method and path reach which handler, and what each handler answers.

import { toReportResource, type MockReport } from './data.js';
import { pageBody, selectProjects, selectReports, validateProjectQuery, validateReportQuery, type Envelope, type ReportListQuery } from './listing.js';
import type { MockStore } from './store.js';
import { validateNewReport, validateReportChanges, type Input } from './validation.js';

export const API_PREFIX = '/api/v1';

/** What a handler sees of a request that passed the fault, rate-limit and auth checks. */
export interface RouteRequest {
  method: string;
  /** Path as received, without the query string. */
  path: string;
  query: Input;
  form: Input;
  /** Scheme and authority the client used, e.g. http://127.0.0.1:8787, for absolute page links. */
  origin: string;
  envelope: Envelope;
  store: MockStore;
  now: Date;
  /** Hosts the service cannot fetch a page from besides those under `.invalid` (--unreachable). */
  unreachable: readonly string[];
}

export interface RouteResponse {
  status: number;
  /** Sent as JSON, unless `contentType` is given: then it is text sent as it is. */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** Set when the request stored a new report: the after-create faults apply to it. */
  createdReport?: boolean;
}

export type Handler = (request: RouteRequest, params: string[]) => RouteResponse;

export interface Route {
  /** Path segments under the prefix; ':' marks a parameter. */
  pattern: readonly string[];
  handlers: Readonly<Record<string, Handler>>;
}

export function json(status: number, body: unknown): RouteResponse {
  return { status, body };
}

function reportNotFound(rawId: string): RouteResponse {
  return json(404, { message: `No query results for model [App\\Models\\Report] ${rawId}.` });
}

/** Only all-digit ids name a report; anything else is unknown, as with a `whereNumber` route. */
export function findReportId(rawId: string): number | undefined {
  return /^\d+$/.test(rawId) ? Number(rawId) : undefined;
}

export function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export function listLocation(request: RouteRequest): { path: string; query: Input } {
  return { path: `${request.origin}${request.path.replace(/\/+$/, '')}`, query: request.query };
}

/**
 * The last filtered and sorted list of each store, kept until the store changes: paging through a large seed
 * (100,000 reports for the bench) would otherwise copy and sort the whole list for every page.
 */
const lastSelection = new WeakMap<MockStore, { key: string; revision: number; records: MockReport[] }>();

/** The stored reports the query selects, in its order; passwords included, so render them before sending. */
export function selectedReports(store: MockStore, query: ReportListQuery): MockReport[] {
  const key = JSON.stringify({ ...query, page: undefined, perPage: undefined });
  const kept = lastSelection.get(store);
  if (kept && kept.key === key && kept.revision === store.revision) return kept.records;
  const records = selectReports(store.reports(), query);
  lastSelection.set(store, { key, revision: store.revision, records });
  return records;
}

const listReports: Handler = (request) => {
  const validated = validateReportQuery(request.query);
  if (!validated.ok) return json(422, validated.errors.body());
  const records = selectedReports(request.store, validated.value);
  return json(200, pageBody(records, validated.value, request.envelope, listLocation(request), toReportResource));
};

const createReport: Handler = (request) => {
  const validated = validateNewReport(request.form, request.unreachable);
  if (!validated.ok) return json(422, validated.errors.body());
  const report = request.store.createReport(validated.value, request.now);
  return { status: 201, body: { data: toReportResource(report) }, createdReport: true };
};

const showReport: Handler = (request, [rawId = '']) => {
  const id = findReportId(rawId);
  const report = id === undefined ? undefined : request.store.findReport(id);
  return report === undefined ? reportNotFound(rawId) : json(200, { data: toReportResource(report) });
};

const updateReport: Handler = (request, [rawId = '']) => {
  const id = findReportId(rawId);
  if (id === undefined || request.store.findReport(id) === undefined) return reportNotFound(rawId);
  const validated = validateReportChanges(request.form);
  if (!validated.ok) return json(422, validated.errors.body());
  const report = request.store.updateReport(id, validated.value, request.now);
  return report === undefined ? reportNotFound(rawId) : json(200, { data: toReportResource(report) });
};

const deleteReport: Handler = (request, [rawId = '']) => {
  const id = findReportId(rawId);
  if (id === undefined || !request.store.deleteReport(id)) return reportNotFound(rawId);
  return { status: 204 };
};

const listProjects: Handler = (request) => {
  const validated = validateProjectQuery(request.query);
  if (!validated.ok) return json(422, validated.errors.body());
  const records = selectProjects(request.store.projects(), validated.value);
  return json(200, pageBody(records, validated.value, request.envelope, listLocation(request)));
};

const deleteProject: Handler = (request, [rawName = '']) => {
  const name = decodeSegment(rawName);
  if (name === undefined || !request.store.deleteProject(name)) return json(404, { message: 'Resource not found.' });
  return json(200, { id: name, object: 'project', deleted: true });
};

// HEAD is answered like GET; Node leaves out the body.
const ROUTES: readonly Route[] = [
  { pattern: ['reports'], handlers: { GET: listReports, HEAD: listReports, POST: createReport } },
  {
    pattern: ['reports', ':id'],
    handlers: { GET: showReport, HEAD: showReport, PUT: updateReport, PATCH: updateReport, DELETE: deleteReport },
  },
  { pattern: ['projects'], handlers: { GET: listProjects, HEAD: listProjects } },
  { pattern: ['projects', ':project'], handlers: { DELETE: deleteProject } },
];

/** Whether a path is the API's (under /api/v1) rather than the web application's. */
export function isApiPath(path: string): boolean {
  return path.replace(/\/+$/, '') === API_PREFIX || segmentsUnderPrefix(path) !== undefined;
}

/** The segments under /api/v1, or undefined for a path outside it. A trailing slash is ignored. */
function segmentsUnderPrefix(path: string): string[] | undefined {
  const trimmed = path.replace(/\/+$/, '');
  if (!trimmed.startsWith(`${API_PREFIX}/`)) return undefined;
  return trimmed.slice(API_PREFIX.length + 1).split('/');
}

function matchRoute(routes: readonly Route[], segments: string[]): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    if (route.pattern.length !== segments.length) continue;
    const params: string[] = [];
    const matches = route.pattern.every((part, index) => {
      const segment = segments[index] ?? '';
      if (part.startsWith(':')) {
        params.push(segment);
        return segment !== '';
      }
      return part === segment;
    });
    if (matches) return { route, params };
  }
  return undefined;
}

/** Finds the handler for the request among `routes` and runs it; `unknownPath` answers a path no route has, 405 an unknown method. */
export function dispatchAmong(routes: readonly Route[], request: RouteRequest, unknownPath: (routeName: string) => RouteResponse): RouteResponse {
  const segments = segmentsUnderPrefix(request.path);
  const match = segments === undefined ? undefined : matchRoute(routes, segments);
  const routeName = request.path.replace(/^\/+/, '');
  if (match === undefined) return unknownPath(routeName);
  const handler = match.route.handlers[request.method];
  if (handler === undefined) {
    const allowed = Object.keys(match.route.handlers).join(', ');
    return {
      status: 405,
      body: { message: `The ${request.method} method is not supported for route ${routeName}. Supported methods: ${allowed}.` },
      headers: { Allow: allowed },
    };
  }
  return handler(request, match.params);
}

/** The API document's service: its routes, and Laravel's default 404 for any other path. */
export function dispatch(request: RouteRequest): RouteResponse {
  return dispatchAmong(ROUTES, request, (routeName) => json(404, { message: `The route ${routeName} could not be found.` }));
}
