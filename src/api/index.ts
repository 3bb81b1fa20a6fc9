// The library entry (`import { ApiClient } from 'rsapi'`): the API client core, usable on its own: `new ApiClient({ baseUrl, apiKey })`.
export * from './client.js';
export * from './errors.js';
export * from './http/base-url.js';
export { decodePage, decodeRecord } from './http/decode.js';
export { toNumber, type ApiRecord, type Page } from './model/record.js';
// Records hold an id beyond 2^53 as a bigint: stringifyJson writes it back exactly (JSON.stringify would throw).
export { parseJson, stringifyJson, JsonTooDeepError, MAX_JSON_DEPTH } from './http/json.js';
export {
  HttpClient,
  MAX_BODY_BYTES,
  mayLeaveBasePath,
  type HttpMethod,
  type HttpRequest,
  type HttpResponse,
  type TraceEvent,
  type Params,
} from './http/http.js';
export type { PaceEvent } from './http/rate-limiter.js';
export { iteratePages, iterateRecords, type PagingOptions } from './http/paging.js';
export * from './reports.js';
export * from './projects.js';
export * from './account.js';
export * from './model/report-model.js';
export * from './model/checks.js';
export type { ProxySettings } from './http/proxy.js';
