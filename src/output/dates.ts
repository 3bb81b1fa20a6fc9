// Recognising ISO 8601 date-times from the service and showing them in local time.

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * The instant an ISO 8601 date-time string names, or undefined if it is not one.
 * A string without an offset is read as UTC: the service sends its dates in UTC
 * (api/response-conventions.md), and reading it as local time would shift it twice.
 */
export function parseIsoDateTime(text: string): Date | undefined {
  const match = ISO_DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '0', fraction = '0', zone = 'Z'] = match;
  const parts = [year, month, day, hour, minute].map(Number);
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0] = parts;
  const s = Number(second);
  const ms = Math.floor(Number(`0.${fraction}`) * 1000);
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const utc = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const check = new Date(utc);
  // Date.UTC rolls 2026-02-31 over into March; such a string is not a date.
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return undefined;
  return new Date(utc - offsetMinutes(zone) * 60_000);
}

function offsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0'));
}

/** `YYYY-MM-DD HH:MM:SS` in the local time zone of the process. */
export function formatLocalDateTime(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
