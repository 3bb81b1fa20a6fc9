// A bulk run against a service that went out of reach: which failures say so, and one line per cause instead of one per URL.
import { type NetworkError, type RsapiError, ServerError, serviceUnreachable, UnsettledCreateError } from '../../../../api/errors.js';
import { describeNetworkFailure } from '../../../../api/http/network-failure.js';
import { plural } from '../../../../plural.js';

/**
 * Why the service is out of reach, in a few words (`connection refused`), when this failure says it is; or why it
 * serves nothing (`it answers HTTP 503`), when a watch for a report ended with its reads still failing.
 */
export function unreachableCause(error: RsapiError): string | undefined {
  if (error instanceof UnsettledCreateError && error.serviceGone instanceof ServerError) return `it answers HTTP ${error.serviceGone.status ?? 'errors'}`;
  const network: unknown = error instanceof UnsettledCreateError ? error.serviceGone : error;
  return serviceUnreachable(network) ? causeWords(network) : undefined;
}

/** `connection refused`, `host not found`: what the connection's own error code says. */
function causeWords(error: NetworkError): string {
  const described = describeNetworkFailure(error.cause);
  if (described.kind !== 'other') return described.detail;
  return error.kind === 'dns' ? 'host not found' : 'connection refused';
}

/** Failures for one reason, counted: printed as one line each at the end of the run, not one line per URL. */
export class CauseTally {
  private readonly counts = new Map<string, { line: (count: number) => string; count: number }>();

  /** Counts the failure if the service being out of reach caused it (true), else leaves it to be reported alone. */
  add(error: RsapiError): boolean {
    const cause = unreachableCause(error);
    if (cause === undefined) return false;
    const unsettled = error instanceof UnsettledCreateError;
    const key = `${unsettled ? 'unsettled' : 'failed'} ${cause}`;
    const failing = error instanceof UnsettledCreateError && error.serviceGone instanceof ServerError;
    const line = unsettled ? (failing ? failingLine(cause) : unsettledLine(cause)) : refusedLine(cause);
    const entry = this.counts.get(key) ?? { line, count: 0 };
    entry.count++;
    this.counts.set(key, entry);
    return true;
  }

  lines(): string[] {
    return [...this.counts.values()].map(({ line, count }) => line(count));
  }
}

const urls = (count: number) => plural(count, 'URL');

function refusedLine(cause: string): (count: number) => string {
  return (count) => `rsapi: ${urls(count)} failed: the service could not be reached (${cause}); they were not created (no request arrived)`;
}

function unsettledLine(cause: string): (count: number) => string {
  return (count) =>
    `rsapi: ${urls(count)} unsettled: the answer was lost, then the service stopped answering (${cause}) while rsapi watched for the report; ` +
    'they may exist (a resume with --journal looks them up before sending)';
}

function failingLine(cause: string): (count: number) => string {
  return (count) =>
    `rsapi: ${urls(count)} unsettled: the outcome of the create is unknown and every look-up for its report failed (${cause}); ` +
    'they may exist (a resume with --journal looks them up before sending)';
}
