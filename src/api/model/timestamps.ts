// The service's timestamps, read one way everywhere: ISO 8601 (Laravel's `2026-11-20T09:14:03.000000Z`), or the SQL
// form very old phpRank versions send (`2025-05-01 10:00:00`); a time without an offset is UTC.

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * The instant an ISO 8601 date-time string names, or undefined if it is not one. A string without an offset is
 * read as UTC: the service sends its dates in UTC (docs/phprank.md), and reading it as
 * local time would shift it twice.
 */
export function parseTimestamp(text: string): Date | undefined {
  const match = ISO_DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '0', fraction = '', zone = 'Z'] = match;
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0] = [year, month, day, hour, minute].map(Number);
  const s = Number(second);
  // Microseconds are cut to milliseconds by their digits, not by floating point.
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0'));
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const utc = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const check = new Date(utc);
  // Date.UTC rolls 2026-02-31 over into March; such a string is not a date.
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return undefined;
  return new Date(utc - offsetMinutes(zone) * 60_000);
}

/** A record field's timestamp in milliseconds since the epoch; undefined when it is not a timestamp. */
export function timestampOf(value: unknown): number | undefined {
  return typeof value === 'string' ? parseTimestamp(value)?.getTime() : undefined;
}

function offsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0'));
}
