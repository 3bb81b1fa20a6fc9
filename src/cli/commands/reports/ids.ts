// Report ids as arguments: checked before any request, so a typo is a usage error, not a 404.
import { InvalidArgumentError } from '@commander-js/extra-typings';
import { UsageError } from '../../runtime/errors.js';

/** Report ids are positive whole numbers (kept as text: an id beyond 2^53 stays exact). */
const ID = /^0*[1-9]\d*$/;

function message(value: string): string {
  return `"${value}" is not a report id (ids look like 42)`;
}

/** Commander argument parser. */
export function reportId(value: string): string {
  if (!ID.test(value.trim())) throw new InvalidArgumentError(`${message(value)}.`);
  return value.trim().replace(/^0+/, '');
}

/** For ids read at run time (from stdin). */
export function checkReportId(value: string): string {
  if (!ID.test(value.trim())) throw new UsageError(message(value));
  return value.trim().replace(/^0+/, '');
}
