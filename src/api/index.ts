// The library entry (`import { ApiClient } from 'rsapi'`): the API client core, usable on its own: `new ApiClient({ baseUrl, apiKey })`.
export * from './client.js';
export * from './errors.js';
export * from './base-url.js';
export { decodePage, decodeRecord, toNumber, type ApiRecord, type Page } from './decode.js';
// Records hold an id beyond 2^53 as a bigint: stringifyJson writes it back exactly (JSON.stringify would throw).
export { parseJson, stringifyJson, JsonTooDeepError, MAX_JSON_DEPTH } from './json.js';
export { HttpClient, MAX_BODY_BYTES, mayLeaveBasePath, type HttpMethod, type HttpRequest, type HttpResponse, type TraceEvent, type Params } from './http.js';
export type { PaceEvent } from './rate-limiter.js';
export { iteratePages, iterateRecords, type PagingOptions } from './paging.js';
export * from './reports.js';
export * from './projects.js';
export * from './account.js';
export * from './report-model.js';
export * from './checks.js';
export type { ProxySettings } from './proxy.js';
