// Which fields a record is rendered with, and how one field's value becomes a cell: raw (csv, tsv) or for display (table).
import { domainToUnicode } from 'node:url';
import { parseTimestamp } from '../api/model/timestamps.js';
import { formatLocalDateTime } from './table/dates.js';
import { stringifyJson } from '../api/http/json.js';
import { formatScore } from '../api/model/report-model.js';
import { terminalText } from './terminal-text.js';
import type { RecordKind, ServiceRecord } from './types.js';

const REPORT_COLUMNS = ['id', 'url', 'project', 'result', 'score', 'privacy', 'generated_at'];
const PROJECT_COLUMNS = ['project', 'created_at'];
/** A project with figures (phpRank: `reports` and the `average` its score sum gives) shows them before its date. */
const PROJECT_FIGURES = ['reports', 'average'];
/** Numbers a person reads as scores: phpRank's unrounded floats are shown to one decimal in a table. */
const SCORE_FIELDS = new Set(['score', 'average']);
const PRIVACY_LABELS: Readonly<Record<string, string>> = { '0': 'public', '1': 'private', '2': 'password' };

/**
 * The columns shown when --fields is not given. For projects, the service may add figures: phpRank's `reports` and
 * the `average` the record model derives (project, reports, average, created_at); other counts (e.g.
 * `reports_count`), every key of `sample` (the first record) named `count` or ending in `_count`, are appended in
 * the record's key order.
 */
export function defaultColumns(kind: RecordKind, sample?: ServiceRecord): string[] {
  if (kind === 'report') return [...REPORT_COLUMNS];
  const figures = sample ? PROJECT_FIGURES.filter((key) => Object.hasOwn(sample, key)) : [];
  const counts = sample ? Object.keys(sample).filter(isCountField) : [];
  return ['project', ...figures, 'created_at', ...counts.filter((key) => !PROJECT_COLUMNS.includes(key))];
}

function isCountField(key: string): boolean {
  return key === 'count' || key.endsWith('_count');
}

/** The --fields list if one was given, else the default columns for this kind of record. */
export function columnsFor(kind: RecordKind, fields: string[] | undefined, sample?: ServiceRecord): string[] {
  return fields && fields.length > 0 ? fields : defaultColumns(kind, sample);
}

/**
 * csv's and tsv's columns: those of columnsFor, and after them a report's `failed_checks` when `sample` (the first
 * record, as shown) has it: the failed checks of reports with per-check results, as `reports show` gives them in a
 * pipe. Last, so the positions of the other columns do not depend on the dialect.
 */
export function rowColumns(kind: RecordKind, fields: string[] | undefined, sample?: ServiceRecord): string[] {
  const columns = columnsFor(kind, fields, sample);
  const checks = kind === 'report' && (fields ?? []).length === 0 && sample !== undefined && Object.hasOwn(sample, 'failed_checks');
  return checks ? [...columns, 'failed_checks'] : columns;
}

/** The record's identifier: the report id or the project name, '' if missing. */
export function recordId(record: ServiceRecord, kind: RecordKind): string {
  const value = kind === 'report' ? fieldValue(record, 'id') : fieldValue(record, 'project');
  return isScalar(value) ? String(value) : '';
}

/** A field's value, looking only at the record's own keys (so `--fields constructor` finds nothing). */
export function fieldValue(record: ServiceRecord, field: string): unknown {
  return Object.hasOwn(record, field) ? record[field] : undefined;
}

/** The record itself, or with --fields only those keys, in that order, a missing key becoming null. */
export function selectFields(record: ServiceRecord, fields: string[] | undefined): ServiceRecord {
  if (!fields || fields.length === 0) return record;
  // fromEntries defines own properties, so a field named `__proto__` stays an ordinary key.
  return Object.fromEntries(fields.map((field) => [field, fieldValue(record, field) ?? null]));
}

/** A value as the service sent it, as text: null/missing empty, objects and arrays as compact JSON. */
export function rawCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (isScalar(value)) return String(value);
  return stringifyJson(value) ?? '';
}

/** A value for a human: privacy as a label, date-times in local time, control characters made visible. */
export function displayCell(field: string, value: unknown): string {
  if (SCORE_FIELDS.has(field) && typeof value === 'number' && Number.isFinite(value)) return formatScore(value);
  if (field === 'privacy' && isScalar(value)) {
    const label = PRIVACY_LABELS[String(value)];
    if (label) return label;
  }
  // A host in punycode and a percent-encoded path as people write them (display only: json, csv and tsv stay exact).
  if ((field === 'url' || field === 'project') && typeof value === 'string') return terminalText(readableUrl(value));
  // phpRank answers null to a create that sent no privacy (the account's default applies, which the answer does not
  // say): a dash says "not given", where an empty cell would look like a value lost.
  if (field === 'privacy' && (value === null || value === undefined)) return '-';
  // generated_at, created_at, updated_at and any unknown field holding an ISO date-time alike.
  const date = typeof value === 'string' ? parseTimestamp(value) : undefined;
  if (date) return formatLocalDateTime(date);
  return terminalText(rawCell(value));
}

function isScalar(value: unknown): value is string | number | boolean | bigint {
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' || type === 'bigint';
}

/**
 * `xn--r8jz45g.jp/%E3%83%91%E3%82%B9` as `例え.jp/パス`: punycode labels in Unicode, percent-escapes of UTF-8
 * text decoded, except those of characters that would change what the URL says (`%2F`, `%3F`, `%25`, spaces, ...),
 * which stay. A value that is not a host and path stays as it is.
 */
export function readableUrl(value: string): string {
  if (!/xn--|%[89a-f]/i.test(value)) return value;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? '';
  const rest = value.slice(scheme.length);
  const end = rest.search(/[/?#]/);
  const [host, tail] = end === -1 ? [rest, ''] : [rest.slice(0, end), rest.slice(end)];
  const [name = '', port] = host.split(/:(?=\d+$)/);
  const unicode = /xn--/i.test(name) ? domainToUnicode(name) || name : name;
  return `${scheme}${unicode}${port === undefined ? '' : `:${port}`}${decodeText(tail)}`;
}

/** Percent-escapes of non-ASCII UTF-8 decoded; those of ASCII (reserved or not) kept, so nothing changes meaning. */
function decodeText(text: string): string {
  return text.replace(/(?:%[89a-f][0-9a-f])+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
