// What every command gets: the terminal, the global options, resolved settings, a lazily made API client, output options.
import { ApiClient } from '../api/client.js';
import type { TraceEvent } from '../api/http.js';
import { isLoopbackHost, normaliseBaseUrl } from '../api/base-url.js';
import { MissingKeyError, UsageError } from '../api/errors.js';
import { resolveSettings, type ResolvedSettings } from '../config/resolve.js';
import { OUTPUT_FORMATS, type OutputFormat, type OutputOptions, type RecordKind } from '../output/index.js';
import { USER_AGENT } from '../version.js';
import { redact, registerSecret } from './secrets.js';
import { colorEnabled, type Terminal } from './terminal.js';

/** The options every command accepts, before or after its name. */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
  output?: OutputFormat;
  json?: boolean;
  fields?: string[];
  quiet?: boolean;
  color: boolean;
  verbose?: boolean;
  timeout?: number;
  retries?: number;
}

export class CommandContext {
  private resolved: ResolvedSettings | undefined;
  private apiClient: ApiClient | undefined;

  constructor(
    readonly io: Terminal,
    readonly globals: GlobalOptions,
    /** Aborted on Ctrl-C. */
    readonly signal: AbortSignal,
  ) {
    registerSecret(globals.apiKey);
  }

  settings(): ResolvedSettings {
    if (!this.resolved) {
      this.resolved = resolveSettings(this.globals, this.io.env);
      registerSecret(this.resolved.apiKey);
    }
    return this.resolved;
  }

  /** The API client for this run (one connection pool). Fails before any request without base URL or key. */
  client(): ApiClient {
    if (this.apiClient) return this.apiClient;
    const settings = this.settings();
    if (!settings.baseUrl) {
      throw new UsageError(`no base URL configured for profile "${settings.profile}"`, {
        hint: 'pass --base-url, set RSAPI_BASE_URL, or run `rsapi auth login`',
      });
    }
    if (!settings.apiKey) throw new MissingKeyError(settings.profile);
    const baseUrl = normaliseBaseUrl(settings.baseUrl);
    this.warnIfPlainHttp(baseUrl);
    const timeoutSeconds = this.globals.timeout ?? settings.stored.timeout;
    this.apiClient = new ApiClient({
      baseUrl,
      apiKey: settings.apiKey,
      userAgent: USER_AGENT,
      timeoutMs: timeoutSeconds === undefined ? undefined : timeoutSeconds * 1000,
      createTimeoutMs: timeoutSeconds === undefined ? undefined : timeoutSeconds * 1000,
      retries: this.globals.retries ?? settings.stored.retries,
      retryBaseMs: retryBaseMs(this.io.env),
      signal: this.signal,
      onTrace: this.globals.verbose ? (event) => this.trace(event) : undefined,
    });
    return this.apiClient;
  }

  /** The output format: flag, then the profile's `output`, then table on a terminal and tsv elsewhere. */
  format(): OutputFormat {
    if (this.globals.json) return 'json';
    if (this.globals.output) return this.globals.output;
    const stored = this.settings().stored.output;
    if (stored && (OUTPUT_FORMATS as readonly string[]).includes(stored)) return stored as OutputFormat;
    return this.io.stdoutIsTTY ? 'table' : 'tsv';
  }

  outputOptions(kind: RecordKind): OutputOptions {
    return {
      format: this.format(),
      kind,
      fields: this.globals.fields,
      quiet: this.globals.quiet,
      color: colorEnabled(this.io, this.globals.color),
    };
  }

  /** Prints a line on stderr (hints, warnings, progress), never on stdout. */
  note(line: string): void {
    this.io.stderr.write(`${redact(line)}\n`);
  }

  async close(): Promise<void> {
    await this.apiClient?.close();
  }

  private warnIfPlainHttp(baseUrl: string): void {
    const url = new URL(baseUrl);
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      this.note(`rsapi: warning: ${url.host} is reached over plain http; the API key travels unencrypted`);
    }
  }

  private trace(event: TraceEvent): void {
    const outcome = event.status !== undefined ? String(event.status) : `failed: ${event.error ?? 'unknown'}`;
    const retry = event.retryInMs !== undefined ? `, retrying in ${event.retryInMs} ms` : '';
    const attempt = event.attempt > 1 ? ` (attempt ${event.attempt})` : '';
    this.note(`> ${event.method} ${event.url}${attempt} -> ${outcome} in ${event.ms} ms${retry}`);
  }
}

/** Test hook: RSAPI_RETRY_BASE_MS shortens the backoff so tests of retries run fast. */
function retryBaseMs(env: NodeJS.ProcessEnv): number | undefined {
  const value = Number(env.RSAPI_RETRY_BASE_MS);
  return env.RSAPI_RETRY_BASE_MS && Number.isFinite(value) && value >= 0 ? value : undefined;
}
