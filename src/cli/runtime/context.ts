// What every command gets: the terminal, the global options, resolved settings, a lazily made API client, output options.
import type { addGlobalOptions } from '../flags/options.js';
import { setMaxListeners } from 'node:events';
import { ApiClient } from '../../api/client.js';
import type { TraceEvent } from '../../api/http/http.js';
import type { PaceEvent } from '../../api/http/rate-limiter.js';
import { proxyFromEnv, type ProxySettings } from '../../api/http/proxy.js';
import { isLoopbackHost, normaliseBaseUrl } from '../../api/http/base-url.js';
import { MissingKeyError, UsageError } from './errors.js';
import { checkApiKey } from '../../config/keys.js';
import { configPath } from '../../config/paths.js';
import { defaultSetting, resolveSettings, storedKeyElsewhere, unknownProfileError, type ResolvedSettings } from '../../config/resolve.js';
import type { OutputFormat, OutputOptions, RecordKind } from '../../output/index.js';
import { USER_AGENT } from '../../version.js';
import { forStderr } from '../terminal/stderr.js';
import type { Invocation } from './invocation.js';
import type { Clock } from '../../api/http/clock.js';
import type { Secrets } from './secrets.js';
import type { StdoutState } from '../terminal/stdout-gone.js';
import type { LockFiles } from '../../config/lock-file.js';
import { colorEnabled, terminalWidth, type Terminal } from '../terminal/terminal.js';

/** The global flags, as their declaration (addGlobalOptions) types them. */
export type GlobalOptions = ReturnType<ReturnType<typeof addGlobalOptions<OutputFormat>>['opts']>;

/** What a command prints: records of the service (reports, projects), or a document about the tool itself (settings, profiles, the key's status). */
export type FormatOf = 'records' | 'tool';

export class CommandContext {
  private resolved: ResolvedSettings | undefined;
  private apiClient: ApiClient | undefined;
  private readonly openClients: ApiClient[] = [];
  private warnedPlainHttp = false;
  private warnedOfService = false;
  /** The live line on stderr notes go through while it is drawn (notesThrough). */
  private liveLine: ((line: string) => void) | undefined;
  private readonly halt = new AbortController();
  /** Raised on Ctrl-C or by haltRequests(): from then on no request of this run starts (retries and look-ups included). */
  readonly noNewRequests: AbortSignal;
  readonly io: Terminal;
  /** Aborted on Ctrl-C. */
  readonly signal: AbortSignal;
  readonly clock: Clock;
  /** The invocation's secrets: whatever this run learns to be one is registered here and never printed. */
  readonly secrets: Secrets;
  /** Whether the reader of stdout went away; a run that must end cleanly holds on through it. */
  readonly stdoutState: StdoutState;
  /** The lock files this process holds (settings, journals). */
  readonly locks: LockFiles;

  constructor(
    invocation: Invocation,
    readonly globals: GlobalOptions,
  ) {
    ({ io: this.io, signal: this.signal, clock: this.clock, secrets: this.secrets, stdoutState: this.stdoutState, locks: this.locks } = invocation);
    this.secrets.register(globals.apiKey);
    this.noNewRequests = AbortSignal.any([this.signal, this.halt.signal]);
    setMaxListeners(0, this.noNewRequests);
  }

  /** No further request starts in this run (a bulk run's journal failed, or its stdout went away); those under way finish. */
  haltRequests(): void {
    this.halt.abort();
  }

  settings(): ResolvedSettings {
    if (!this.resolved) {
      this.resolved = resolveSettings(this.globals, this.io.env);
      if (this.resolved.settingsFileProblem) this.note(`rsapi: warning: ${this.resolved.settingsFileProblem}; passed over (the base URL and key are given)`);
      this.secrets.register(this.resolved.apiKey);
      // A base URL with credentials is refused where it is used; its password is kept out of every message meanwhile.
      for (const password of urlPasswords(this.resolved.baseUrl)) this.secrets.register(password);
    }
    return this.resolved;
  }

  /**
   * The API client for this run (one connection pool). Fails before any request without base URL or key.
   * `abortOnInterrupt: false` (bulk create) lets requests under way finish on Ctrl-C; the command stops
   * starting new ones itself. The first call decides: the client is made once.
   */
  client(options: { abortOnInterrupt?: boolean } = {}): ApiClient {
    if (this.apiClient) return this.apiClient;
    const settings = this.settings();
    if (!settings.baseUrl || !settings.apiKey) {
      // `--profile defualt` is a typo to point out, not a "no base URL" to puzzle over.
      const unknown = unknownProfileError(settings);
      if (unknown) throw unknown;
    }
    if (!settings.baseUrl) {
      throw new UsageError(`no base URL configured for profile "${settings.profile}"`, {
        hint: 'pass --base-url, set RSAPI_BASE_URL, or run `rsapi auth login`',
      });
    }
    if (!settings.apiKey) throw MissingKeyError.forProfile(settings.profile);
    checkApiKey(settings.apiKey, KEY_SOURCES[settings.apiKeySource ?? 'profile']);
    const elsewhere = storedKeyElsewhere(settings);
    if (elsewhere) {
      throw new MissingKeyError(
        `the stored key of profile "${settings.profile}" belongs to ${elsewhere.keyOrigin}; it is not sent to ${elsewhere.baseOrigin}`,
        { hint: `log in there: \`rsapi auth login --base-url ${elsewhere.baseOrigin}\`; or give a key for it with --api-key or RSAPI_API_KEY` },
      );
    }
    this.apiClient = this.connect(settings.baseUrl, settings.apiKey, { abortOnInterrupt: options.abortOnInterrupt });
    return this.apiClient;
  }

  /**
   * A client for an address and key of the caller's choosing (`auth login` checks a key before it is stored),
   * with this run's timeout, tracing and Ctrl-C; closed with the context.
   */
  connect(baseUrlInput: string, apiKey: string, options: { retries?: number; abortOnInterrupt?: boolean } = {}): ApiClient {
    this.secrets.register(apiKey);
    const baseUrl = normaliseBaseUrl(baseUrlInput);
    this.warnIfPlainHttp(baseUrl);
    const timeoutSeconds = this.globals.timeout ?? this.storedSetting('timeout');
    const client = new ApiClient({
      baseUrl,
      apiKey,
      userAgent: USER_AGENT,
      timeoutMs: timeoutSeconds === undefined ? undefined : timeoutSeconds * 1000,
      createTimeoutMs: timeoutSeconds === undefined ? undefined : timeoutSeconds * 1000,
      retries: options.retries ?? this.globals.retries ?? this.storedSetting('retries'),
      clock: this.clock,
      signal: options.abortOnInterrupt === false ? undefined : this.signal,
      // Whatever happens to requests under way, none starts after Ctrl-C: retries and look-ups included.
      stop: this.noNewRequests,
      onTrace: (event) => this.trace(event),
      onPace: (event) => this.tracePace(event),
      onWarning: (message) => this.warnOfService(message),
      // After a lost answer, the page's own redirects are retraced to find its report (RSAPI_FOLLOW_PAGES=0: never).
      followPages: this.io.env.RSAPI_FOLLOW_PAGES !== '0',
      proxy: checkedProxy(this.io.env),
    });
    this.openClients.push(client);
    return client;
  }

  /**
   * Part of a verb's plan: output flags that disagree (--json with -o csv, -q with --fields, --jq with -o tsv)
   * or a broken stored `output` are a usage error before anything is read or sent, not after the change was made.
   */
  checkOutputFlags(of: FormatOf = 'records'): void {
    this.format(of);
  }

  /**
   * The output format: flag, then the profile's `output` (RSAPI_OUTPUT), then table on a terminal and tsv elsewhere.
   * A document about the tool itself (`config list`, `auth status`) follows the flags only: the stored `output` is
   * the format of record lists, and a profile's `output json` leaves those as the key=value lines people read.
   */
  format(of: FormatOf = 'records'): OutputFormat {
    const { json, output, quiet, fields } = this.globals;
    if (json && output && output !== 'json') throw new UsageError(`--json and -o ${output} ask for different formats`, { hint: 'give one of them' });
    // -q prints ids and nothing else: a format or fields given beside it would be silently ignored.
    if (quiet && (json || output))
      throw new UsageError(`-q prints only ids, one a line; it cannot be combined with ${json ? '--json' : `-o ${output}`}`, { hint: 'give one of them' });
    if (quiet && fields)
      throw new UsageError('-q prints only ids, one a line; it cannot be combined with --fields', {
        hint: `for one field a line: -o tsv --fields ${fields[0] ?? 'url'}`,
      });
    if (this.globals.jq !== undefined) {
      // jq reads JSON: one document (json) or a stream of them (ndjson).
      if (quiet || (output && output !== 'json' && output !== 'ndjson'))
        throw new UsageError(`--jq filters JSON output; it cannot be combined with ${quiet ? '-q' : `-o ${output}`}`, { hint: 'drop one of them' });
      return output ?? 'json';
    }
    if (json) return 'json';
    if (output) return output;
    const stored = of === 'records' ? (this.storedSetting('output') as OutputFormat | undefined) : undefined;
    return stored ?? (this.io.stdoutIsTTY ? 'table' : 'tsv');
  }

  /** A default below the flags: RSAPI_TIMEOUT/RETRIES/OUTPUT, else the profile's, checked (a hand-edited file may hold anything). */
  private storedSetting<K extends 'timeout' | 'retries' | 'output'>(key: K) {
    return defaultSetting(this.settings(), key, this.io.env, configPath(this.io.env));
  }

  outputOptions(kind: RecordKind, of: FormatOf = 'records'): OutputOptions {
    return {
      format: this.format(of),
      kind,
      fields: this.globals.fields,
      quiet: this.globals.quiet,
      terminal: this.io.stdoutIsTTY,
      color: colorEnabled(this.io, this.globals.color),
      // Only a table on a terminal is fitted to its width; a table piped to a file or a pager stays whole.
      width: this.io.stdoutIsTTY && !this.globals.wide ? terminalWidth(this.io) : undefined,
      notice: (line) => this.note(line),
    };
  }

  /** Prints a line on stderr (hints, warnings, progress), never on stdout; through the live line when one is drawn. */
  note(line: string): void {
    if (this.liveLine) this.liveLine(forStderr(line));
    else this.io.stderr.write(`${forStderr(line)}\n`);
  }

  /**
   * While a live line (a progress bar, a spinner) is drawn on stderr, every note (a retry after a 429, a rate limit's
   * wait) goes through its `log`, which writes the line above it, never onto it. Returns the function that ends this.
   */
  notesThrough(log: (line: string) => void): () => void {
    this.liveLine = log;
    return () => {
      if (this.liveLine === log) this.liveLine = undefined;
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.openClients.splice(0).map((client) => client.close()));
  }

  /** What the client tolerated in an answer (a PHP notice before the JSON): said once per run, not once per page. */
  private warnOfService(message: string): void {
    if (this.warnedOfService) return;
    this.warnedOfService = true;
    this.note(`rsapi: warning: ${message}`);
  }

  /** The key would cross the network in clear text: say so (once per run). */
  warnIfPlainHttp(baseUrl: string): void {
    if (this.warnedPlainHttp) return;
    const url = new URL(baseUrl);
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      this.note(`rsapi: warning: ${url.host} is reached over plain http; the API key travels unencrypted`);
      this.warnedPlainHttp = true;
    }
  }

  /** A wait for the service's rate-limit window: said with --verbose, or when it is long enough to look like a hang. */
  private tracePace(event: PaceEvent): void {
    if (!this.globals.verbose && event.waitMs < NOTICEABLE_WAIT_MS) return;
    this.note(`rsapi: the service's rate limit (${event.limit} requests a window) is used up; waiting ${Math.ceil(event.waitMs / 1000)} s for the next window`);
  }

  /**
   * --verbose traces every attempt. Without it, a retry that makes the user wait (a long Retry-After)
   * is still said, so a pause never looks like a hang.
   */
  private trace(event: TraceEvent): void {
    if (!this.globals.verbose) {
      if (event.retryInMs !== undefined && event.retryInMs >= NOTICEABLE_WAIT_MS) {
        const why = event.status !== undefined ? `HTTP ${event.status}` : (event.error ?? 'failed');
        this.note(
          `rsapi: ${event.method} ${new URL(event.url).pathname}: ${why}; retrying in ${Math.round(event.retryInMs / 1000)} s (attempt ${event.attempt + 1})`,
        );
      }
      return;
    }
    const outcome = event.status !== undefined ? String(event.status) : `failed: ${event.error ?? 'unknown'}`;
    const retry = event.retryInMs !== undefined ? `, retrying in ${event.retryInMs} ms` : '';
    const attempt = event.attempt > 1 ? ` (attempt ${event.attempt})` : '';
    this.note(`> ${event.method} ${event.url}${attempt} -> ${outcome} in ${event.ms} ms${retry}`);
  }
}

const NOTICEABLE_WAIT_MS = 2_000;
const KEY_SOURCES = { flag: 'the API key given with --api-key', env: 'the API key in RSAPI_API_KEY', profile: 'the stored API key' } as const;

/** The password of a base URL with credentials, as typed (percent-encoded) and decoded. */
function urlPasswords(url: string | undefined): string[] {
  let password = '';
  try {
    password = url ? new URL(url).password : '';
  } catch {
    return [];
  }
  if (!password) return [];
  try {
    return [password, decodeURIComponent(password)];
  } catch {
    return [password];
  }
}

/**
 * The proxy settings, refused before any request when one is not an http(s) URL (`HTTP_PROXY=notaurl`): a setting
 * to fix, exit 2, not an "unexpected error". The value is not repeated: it may hold the proxy's password.
 */
function checkedProxy(env: NodeJS.ProcessEnv): ProxySettings {
  const proxy = proxyFromEnv(env);
  const checks = [
    [proxy.httpsProxy, env.HTTPS_PROXY ? 'HTTPS_PROXY' : 'https_proxy'],
    [proxy.httpProxy, env.HTTP_PROXY ? 'HTTP_PROXY' : 'http_proxy'],
  ] as const;
  for (const [value, variable] of checks) {
    if (value !== undefined && !isHttpUrl(value))
      throw new UsageError(`${variable} is not a proxy URL`, { hint: `write it as http://host:port, or unset ${variable}` });
  }
  return proxy;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
