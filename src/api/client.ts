// The API client: one HTTP client (one connection pool) and the typed resources over it.
import { AccountApi } from './account.js';
import { normaliseBaseUrl } from './http/base-url.js';
import { InvalidRequestError } from './errors.js';
import { HttpClient, mayLeaveBasePath, type HttpClientOptions, type HttpMethod, type HttpRequest, type HttpResponse, type Params } from './http/http.js';
import { ProjectsApi } from './projects.js';
import { USER_AGENT } from '../version.js';
import { ReportsApi } from './reports.js';

export interface ApiClientOptions extends Omit<HttpClientOptions, 'baseUrl' | 'timeoutMs' | 'retries' | 'userAgent'> {
  /** Site root or …/api/v1; normalised here. */
  baseUrl: string;
  /** Per attempt for reads, updates and deletes. Default 30 s. */
  timeoutMs?: number;
  /** Per attempt for report creation (the service audits the page first). Default 120 s. */
  createTimeoutMs?: number;
  /** Default 2. */
  retries?: number;
  /** Default `rsapi/<version>`. */
  userAgent?: string;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_CREATE_TIMEOUT_MS = 120_000;
export const DEFAULT_RETRIES = 2;

export class ApiClient {
  readonly http: HttpClient;
  readonly reports: ReportsApi;
  readonly projects: ProjectsApi;
  readonly account: AccountApi;

  constructor(options: ApiClientOptions) {
    this.http = new HttpClient({
      ...options,
      baseUrl: normaliseBaseUrl(options.baseUrl),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retries: options.retries ?? DEFAULT_RETRIES,
      userAgent: options.userAgent ?? USER_AGENT,
    });
    this.reports = new ReportsApi(this.http, options.createTimeoutMs ?? DEFAULT_CREATE_TIMEOUT_MS);
    this.projects = new ProjectsApi(this.http);
    this.account = new AccountApi(this.http);
  }

  /**
   * Any request under the base URL (the `api` command): fields go to the query for GET/DELETE, else to the
   * form body. A query string in `path` stays in the query (fields win over its keys).
   */
  async raw(method: HttpMethod, path: string, fields: Params = {}, extra: Pick<HttpRequest, 'headers' | 'body'> = {}): Promise<HttpResponse> {
    const inQuery = method === 'GET' || method === 'DELETE';
    const [pathOnly = '', queryString] = splitOnce(path, '?');
    const fromPath: Params = Object.fromEntries(new URLSearchParams(queryString ?? ''));
    if (mayLeaveBasePath(pathOnly)) {
      throw new InvalidRequestError(
        `the path ${JSON.stringify(pathOnly)} could leave the base URL: "." and ".." steps and backslashes are refused, encoded or not`,
      );
    }
    const normalised = `/${pathOnly.replace(/^\/+/, '').replace(/^api\/v1(\/|$)/, '')}`;
    // A body of its own (--input): the fields go in the query string, as gh api does.
    const query = inQuery || extra.body ? { ...fromPath, ...fields } : fromPath;
    return this.http.request({ method, path: normalised, query, form: inQuery || extra.body ? undefined : fields, ...extra });
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + separator.length)];
}
