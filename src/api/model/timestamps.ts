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
  if (typeof value !== 'string') return undefined;
  // phpRank's own form read by position (a big run reads 50,000 of them several times), any other through the pattern.
  const time = phpRankTime(value);
  return time ? time.ms + Math.floor(time.micros / 1000) : parseTimestamp(value)?.getTime();
}

/**
 * phpRank's own form, `2026-01-31T09:00:00.000000Z`, read by position: its whole seconds (ms since the epoch) and
 * its microseconds; undefined for any other text, a field out of its range (a 31 April, 24:00), or a year before
 * 1000 (which Date.UTC would read as 19xx: parseTimestamp's way).
 */
export function phpRankTime(text: string): { ms: number; micros: number } | undefined {
  if (text.length !== PHPRANK_FORM.length) return undefined;
  for (const at of SEPARATOR_PLACES) if (text.charCodeAt(at) !== PHPRANK_FORM.charCodeAt(at)) return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  const micros = digitsAt(text, 20, 6);
  const inRange = year >= 1000 && month >= 1 && day >= 1 && day <= daysIn(year, month) && hour < 24 && minute < 60 && second < 60 && micros >= 0;
  return inRange ? { ms: Date.UTC(year, month - 1, day, hour, minute, second), micros } : undefined;
}

/** phpRank's form, its digits aside: each separator in its place. */
const PHPRANK_FORM = '0000-00-00T00:00:00.000000Z';
const SEPARATOR_PLACES = [4, 7, 10, 13, 16, 19, 26];

/** The number the `length` decimal digits at `from` write; NaN when one of them is not a digit. */
function digitsAt(text: string, from: number, length: number): number {
  let value = 0;
  for (let at = from; at < from + length; at++) {
    const digit = text.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return value;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The days of a month (1-12) of the Gregorian calendar; 0 for a month out of range. */
function daysIn(year: number, month: number): number {
  if (month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) return 29;
  return DAYS_IN_MONTH[month - 1] ?? 0;
}

function offsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0'));
}
