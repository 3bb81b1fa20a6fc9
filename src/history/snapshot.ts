// A report as the history keeps it: identity, id, project, score, label, generated_at and each check's passed state
// with a short hash of its value (never the value, never the whole record), and that compact form's encoding.
import { stringifyJson } from '../api/json.js';
import { reportChecks } from '../api/checks.js';
import type { ApiRecord } from '../api/decode.js';
import { readReport } from '../api/report-model.js';
import { reportIdentity, reportProject } from '../api/report-url.js';
import type { CheckState, Snapshot } from './types.js';

/** The snapshot of a record read from `origin`; undefined for a record without a URL (nothing to follow over time). */
export function snapshotOf(record: ApiRecord, origin: string): Snapshot | undefined {
  if (typeof record.url !== 'string' || record.url.trim() === '') return undefined;
  const { label, score } = readReport(record);
  const identity = reportIdentity(record.url);
  const checks = reportChecks(record)?.map((check) => ({ id: check.id, passed: check.passed, hash: valueHash(check.value) }));
  return {
    origin,
    identity,
    reportId: record.id === undefined || record.id === null ? '' : String(record.id),
    project: typeof record.project === 'string' && record.project !== '' ? record.project : reportProject(record.url),
    score,
    label,
    generatedAt: typeof record.generated_at === 'string' ? record.generated_at : '',
    checks,
  };
}

/** 8 hex digits of FNV-1a over the value's JSON: enough to see that a value changed, cheap for 36 checks a report. */
export function valueHash(value: unknown): string {
  const text = value === undefined ? '' : stringifyJson(value);
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** `charset+1a2b3c4d title-9f8e7d6c`: the id (percent-encoded), + passed or - failed, the value's hash; about 20 bytes a check. */
export function encodeChecks(checks: readonly CheckState[]): string {
  return checks.map((check) => `${encodeURIComponent(check.id)}${check.passed ? '+' : '-'}${check.hash}`).join(' ');
}

export function decodeChecks(text: string | undefined): CheckState[] | undefined {
  if (text === undefined) return undefined;
  if (text === '') return [];
  return text.split(' ').map((part) => {
    const sign = part.length - 9;
    return { id: decodeURIComponent(part.slice(0, sign)), passed: part[sign] === '+', hash: part.slice(sign + 1) };
  });
}

/**
 * A snapshot as a report record (seed dialect: `result` the label, `score` the number; `results` each check's passed
 * state, its value the hash): what a baseline from the history compares with, through the same record model.
 */
export function snapshotRecord(snapshot: Snapshot): Record<string, unknown> {
  const record: Record<string, unknown> = {
    id: snapshot.reportId,
    url: snapshot.identity,
    project: snapshot.project,
    result: snapshot.label,
    score: snapshot.score,
    generated_at: snapshot.generatedAt,
  };
  if (snapshot.checks) record.results = Object.fromEntries(snapshot.checks.map((check) => [check.id, { passed: check.passed, value: check.hash }]));
  return record;
}
