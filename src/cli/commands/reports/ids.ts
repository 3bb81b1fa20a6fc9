// Report ids as arguments: checked before any request, so a typo is a usage error, not a 404.
import { InvalidArgumentError } from '@commander-js/extra-typings';
import { UsageError } from '../../errors.js';

const ID = /^[A-Za-z0-9_-]+$/;

function message(value: string): string {
  return `"${value}" is not a report id (ids look like 42)`;
}

/** Commander argument parser. */
export function reportId(value: string): string {
  if (!ID.test(value.trim())) throw new InvalidArgumentError(`${message(value)}.`);
  return value.trim();
}

/** For ids read at run time (from stdin). */
export function checkReportId(value: string): string {
  if (!ID.test(value.trim())) throw new UsageError(message(value));
  return value.trim();
}
