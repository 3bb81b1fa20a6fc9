// The one map from an error to the contract's exit code and the hint shown with it, for the top level and every per-item line.
import { reportProject } from '../../api/model/report-url.js';
import { cappedLines } from '../../output/capped-list.js';
import {
  ApiError,
  AuthError,
  HiddenRecordError,
  InterruptedError,
  InvalidRequestError,
  NetworkError,
  NotFoundError,
  PagingUnsupportedError,
  RateLimitError,
  recordOf,
  ServerError,
  UnsettledCreateError,
  ValidationError,
} from '../../api/errors.js';
import { HistoryError, HistoryNotFoundError, IncompleteRunError } from '../../history/errors.js';
import { BadSitemapError, MissingKeyError, NoMatchError, SitemapUnreachableError, UsageError } from './errors.js';

/** The exit codes of the command contract, one per failure class. */
export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  validation: 5,
  rateLimited: 6,
  network: 7,
  server: 8,
  gate: 10,
  /** The command's own work was done (its output printed), but the history asked for could not be read or written. */
  history: 11,
  /** A merge of run parts missed a share (each named): nothing was recorded as a complete run. */
  incomplete: 12,
  interrupted: 130,
  /** A bulk run whose stdout went away (EPIPE) before every item was done: 128 + SIGPIPE, as a shell reports it. */
  stdoutClosed: 141,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** The exit code for any error: by its class, and for the service's answers by status (every unlisted 4xx is 5). */
export function exitCodeOf(error: unknown): ExitCodeValue {
  if (error instanceof UsageError || error instanceof InvalidRequestError) return ExitCode.usage;
  // A 403 that a look-up showed to be about a record that does not exist is a not-found.
  if (error instanceof HiddenRecordError && !error.exists) return ExitCode.notFound;
  if (error instanceof MissingKeyError || error instanceof AuthError) return ExitCode.auth;
  if (error instanceof InterruptedError) return ExitCode.interrupted;
  if (error instanceof NotFoundError || error instanceof NoMatchError || error instanceof HistoryNotFoundError) return ExitCode.notFound;
  if (error instanceof HistoryError) return ExitCode.history;
  if (error instanceof IncompleteRunError) return ExitCode.incomplete;
  if (error instanceof ValidationError) return ExitCode.validation;
  if (error instanceof RateLimitError) return ExitCode.rateLimited;
  // A create in doubt is a fault of the service when it answered (a 5xx, a 2xx rsapi could not read), else of the network.
  if (error instanceof UnsettledCreateError)
    return error.cause instanceof ApiError && !(error.cause instanceof NetworkError) ? ExitCode.server : ExitCode.network;
  if (error instanceof NetworkError || error instanceof SitemapUnreachableError) return ExitCode.network;
  if (error instanceof ServerError || error instanceof BadSitemapError) return ExitCode.server;
  if (error instanceof ApiError) {
    if (error.status !== undefined && error.status >= 400 && error.status < 500) return ExitCode.validation;
    return ExitCode.server;
  }
  return ExitCode.unexpected;
}

/** What to do about it: the advice the error was raised with, else its class's, in the CLI's words (flags, commands). */
export function hintOf(error: unknown): string | undefined {
  if (error instanceof Error && 'hint' in error && typeof error.hint === 'string') return error.hint;
  if (error instanceof AuthError) return authHint(error);
  if (error instanceof RateLimitError) {
    return error.retryAfterSeconds === undefined
      ? 'wait a moment and try again, or raise --retries'
      : `the service asks to wait ${error.retryAfterSeconds}s; try again then, or raise --retries`;
  }
  if (error instanceof PagingUnsupportedError) return 'use --per-page 100 without --all, or `rsapi api GET …` to see what it answers';
  if (error instanceof UnsettledCreateError) {
    // By project, newest first: a page that redirected is stored under its final URL, which a search by this one misses.
    const newest = `rsapi reports list --project '${reportProject(error.url)}' --sort-by id --sort desc --limit 10`;
    return `check before creating it again (the newest reports of its project): \`${newest}\`; a run with --journal looks it up first when resumed`;
  }
  if (error instanceof NetworkError) {
    return error.kind === 'timeout' ? 'the service did not answer in time; raise --timeout or try again' : 'check the base URL and that the service is running';
  }
  if (error instanceof NotFoundError) return error.routeMissing ? WRONG_BASE_URL : recordHint(error.path);
  return undefined;
}

const WRONG_BASE_URL =
  'the service has no such route: check the base URL (it should end in /api/v1 of a phpRank or other Webpage Report Service; `rsapi auth status` shows it)';

/** How to find the right record: the list command of its kind. */
function recordHint(path: string): string | undefined {
  const record = recordOf(path);
  if (record?.resource === 'reports') return 'check the id; `rsapi reports list` lists reports';
  if (record?.resource === 'projects') return 'check the name; `rsapi projects list` lists projects';
  return undefined;
}

/** Said from what the status and request tell, never from the service's (translated) message. */
function authHint(error: AuthError): string | undefined {
  if (error instanceof HiddenRecordError) {
    return error.exists ? "the key may read it but not change it: check the account's rights or plan on the service" : recordHint(error.path);
  }
  switch (error.refusal) {
    case 'key':
      return 'check the key: `rsapi auth status`, or log in again with `rsapi auth login`';
    case 'plan':
      return "the service refuses even to list the key's own records: the account or its plan seems to have no API access; check the plan on the service";
    case 'record': {
      const list = recordOf(error.path)?.resource === 'projects' ? '`rsapi projects list`' : '`rsapi reports list`';
      return `the service answers 403 alike for what does not exist and what belongs to another account; ${list} lists the key's own`;
    }
    default:
      return 'the service refused this to the key: the account or its plan may not allow it; `rsapi auth status` tells whether the key has API access';
  }
}

/** The lines below the message: one per rejected field (capped), then the hint. Unescaped: the caller escapes for stderr. */
export function detailLines(error: unknown, maxFieldLines = 50): string[] {
  const lines: string[] = [];
  // One at a time: a usage error may name every line of an input (150,000 of them overflowed a spread).
  if (error instanceof UsageError) for (const line of error.lines) lines.push(line);
  if (error instanceof ValidationError) {
    const fieldLines = Object.entries(error.fields).flatMap(([field, messages]) => messages.map((message) => ({ field, message })));
    lines.push(
      ...cappedLines(
        fieldLines,
        maxFieldLines,
        ({ field, message }) => `  ${field}: ${message}`,
        (rest) => `  ${rest} field errors`,
      ),
    );
  }
  const hint = hintOf(error);
  if (hint) lines.push(`hint: ${hint}`);
  return lines;
}
