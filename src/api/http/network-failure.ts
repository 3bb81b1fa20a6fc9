// What a failed connection was, from the error codes of Node and undici: refused, DNS, timeout, reset; and whether the request surely never left.
import type { NetworkFailureKind } from '../errors.js';

const ERROR_KINDS: Record<string, { kind: NetworkFailureKind; detail: string; neverSent?: boolean }> = {
  ECONNREFUSED: { kind: 'refused', detail: 'connection refused' },
  ENOTFOUND: { kind: 'dns', detail: 'host not found' },
  EAI_AGAIN: { kind: 'dns', detail: 'DNS lookup failed' },
  ECONNRESET: { kind: 'reset', detail: 'connection reset by the service' },
  EPIPE: { kind: 'reset', detail: 'connection closed while sending' },
  UND_ERR_SOCKET: { kind: 'reset', detail: 'connection closed by the service before it answered' },
  UND_ERR_CLOSED: { kind: 'reset', detail: 'connection closed' },
  UND_ERR_HEADERS_TIMEOUT: { kind: 'timeout', detail: 'no answer in time' },
  UND_ERR_BODY_TIMEOUT: { kind: 'timeout', detail: 'the answer stalled' },
  UND_ERR_CONNECT_TIMEOUT: { kind: 'timeout', detail: 'could not connect in time', neverSent: true },
  // Linux reports these on a connected socket too, after the request went out (an ICMP error): only a failed
  // connect proves it never left (connectOnly: the errno error's syscall says which).
  EHOSTUNREACH: { kind: 'refused', detail: 'host unreachable', neverSent: false },
  ENETUNREACH: { kind: 'refused', detail: 'network unreachable', neverSent: false },
};
const CONNECT_ONLY = new Set(['EHOSTUNREACH', 'ENETUNREACH']);

export function describeNetworkFailure(error: unknown): { kind: NetworkFailureKind; detail: string; neverSent?: boolean } {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e.name === 'TimeoutError') return { kind: 'timeout', detail: 'no answer in time' };
    const code = (e as NodeJS.ErrnoException).code;
    if (code && ERROR_KINDS[code]) {
      const known = ERROR_KINDS[code];
      if (CONNECT_ONLY.has(code) && (e as NodeJS.ErrnoException).syscall === 'connect') return { ...known, neverSent: true };
      return known;
    }
    if (e instanceof AggregateError && e.errors[0]) return describeNetworkFailure(e.errors[0]);
  }
  return { kind: 'other', detail: error instanceof Error ? error.message : String(error) };
}
