// Laravel-style input validation for the mock service: the rules the endpoints use and the 422 body they produce.

import type { Privacy } from './data.js';
import type { NewReportInput, ReportChanges } from './store.js';

/** Request input: query parameters or form fields, one value per name. */
export type Input = Record<string, string>;

export interface ValidationFailureBody {
  message: string;
  errors: Record<string, string[]>;
}

/** Collects one message per rejected field, in the order the rules run, like Laravel's validator. */
export class FieldErrors {
  private readonly messages: Record<string, string[]> = {};

  add(field: string, message: string): void {
    if (this.messages[field] === undefined) this.messages[field] = [message];
  }

  get isEmpty(): boolean {
    return Object.keys(this.messages).length === 0;
  }

  /** Each rejected field's messages. */
  byField(): Record<string, string[]> {
    return { ...this.messages };
  }

  /** The 422 body; `message` is the first error. */
  body(): ValidationFailureBody {
    const first = Object.values(this.messages)[0]?.[0] ?? 'The given data was invalid.';
    return { message: first, errors: { ...this.messages } };
  }
}

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** Laravel names a field in messages with spaces for underscores: per_page -> "per page". */
function label(field: string): string {
  return field.replace(/_/g, ' ');
}

/** Laravel turns empty strings into null, and an optional null field is treated as absent. */
export function presentValue(input: Input, field: string): string | undefined {
  const value = input[field];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** The `in:` rule on an optional field: answers the value when valid, else records the error. */
export function optionalOneOf<T extends string>(input: Input, field: string, allowed: readonly T[], errors: FieldErrors): T | undefined {
  const value = presentValue(input, field);
  if (value === undefined) return undefined;
  const match = allowed.find((candidate) => candidate === value);
  if (match === undefined) errors.add(field, `The selected ${label(field)} is invalid.`);
  return match;
}

/** The `integer|min:1` rules on an optional field. */
export function optionalPositiveInteger(input: Input, field: string, errors: FieldErrors): number | undefined {
  const value = presentValue(input, field);
  if (value === undefined) return undefined;
  if (!/^[+-]?\d+$/.test(value)) {
    errors.add(field, `The ${label(field)} field must be an integer.`);
    return undefined;
  }
  const number = Number(value);
  if (number < 1) {
    errors.add(field, `The ${label(field)} field must be at least 1.`);
    return undefined;
  }
  return number;
}

export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const PRIVACY_VALUES = ['0', '1', '2'] as const;

export function optionalPrivacy(input: Input, errors: FieldErrors): Privacy | undefined {
  const value = optionalOneOf(input, 'privacy', PRIVACY_VALUES, errors);
  return value === undefined ? undefined : (Number(value) as Privacy);
}

/** Passwords are taken as sent (not trimmed): spaces may be part of one. */
export function optionalPassword(input: Input): string | undefined {
  const value = input['password'];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The fields of POST /reports: url (required, http or https, a page the service can fetch), privacy, password. A page
 * it cannot fetch is a field error of its own wording (the API document says nothing of it).
 */
export function validateNewReport(form: Input, unreachable: readonly string[] = []): Validated<NewReportInput> {
  const errors = new FieldErrors();
  const url = presentValue(form, 'url');
  const failure = url === undefined ? undefined : fetchFailure(url, unreachable);
  if (url === undefined) errors.add('url', 'The url field is required.');
  else if (!isWebUrl(url)) errors.add('url', 'The url field must be a valid URL.');
  else if (failure !== undefined) errors.add('url', `The page at the url could not be fetched (${failure}).`);
  const privacy = optionalPrivacy(form, errors);
  const password = optionalPassword(form);
  if (!errors.isEmpty || url === undefined) return { ok: false, errors };
  return { ok: true, value: { url, privacy: privacy ?? 0, ...(password === undefined ? {} : { password }) } };
}

/** The fields of PUT/PATCH /reports/{id}: privacy, password, update (0 or 1). */
export function validateReportChanges(form: Input): Validated<ReportChanges> {
  const errors = new FieldErrors();
  const privacy = optionalPrivacy(form, errors);
  const password = optionalPassword(form);
  const update = optionalOneOf(form, 'update', ['0', '1'] as const, errors);
  if (!errors.isEmpty) return { ok: false, errors };
  return {
    ok: true,
    value: {
      ...(privacy === undefined ? {} : { privacy }),
      ...(password === undefined ? {} : { password }),
      regenerate: update === '1',
    },
  };
}

/**
 * Why the service could not fetch the page at `url`, as cURL says it (the service fetches every page it audits), or
 * undefined when it can: a host under `.invalid` (RFC 6761: never resolves) or one of `unreachable` (a host the mock
 * plays as not answering, and its subdomains).
 */
export function fetchFailure(url: string, unreachable: readonly string[]): string | undefined {
  let host: string;
  let port: string;
  try {
    const parsed = new URL(url);
    host = parsed.hostname.toLowerCase().replace(/\.$/, '');
    port = parsed.port || (parsed.protocol === 'http:' ? '80' : '443');
  } catch {
    return undefined;
  }
  if (host === 'invalid' || host.endsWith('.invalid')) return `cURL error 6: Could not resolve host: ${host}`;
  const named = unreachable.some((given) => {
    const name = given.toLowerCase().replace(/\.$/, '');
    return host === name || host.endsWith(`.${name}`);
  });
  return named ? `cURL error 7: Failed to connect to ${host} port ${port} after 5001 ms: Couldn't connect to server` : undefined;
}
