// A report as the history keeps it: identity, id, project, score, label, generated_at and each check's passed state
// with a short hash of its value (never the value, never the whole record), and that compact form's encoding.
import { stringifyJson } from '../api/http/json.js';
import { isObject, type ApiRecord } from '../api/model/record.js';
import { readReport } from '../api/model/report-model.js';
import { reportIdentity, reportProject } from '../api/model/report-url.js';
import type { CheckState, Reading, Snapshot } from './types.js';

/**
 * The reading of a record; undefined for a record without a URL (nothing to follow over time). The checks are encoded
 * straight from the record (no object a check): a run over 10,000 reports makes 360,000 of them.
 */
export function readingOf(record: ApiRecord): Reading | undefined {
  const { url } = record;
  if (typeof url !== 'string' || url.trim() === '') return undefined;
  const { label, score } = readReport(record);
  return [
    record.id === undefined || record.id === null ? '' : String(record.id),
    typeof record.generated_at === 'string' ? record.generated_at : '',
    url,
    typeof record.project === 'string' && record.project !== '' ? record.project : null,
    score ?? null,
    label ?? null,
    encodedChecksOf(record) ?? null,
  ];
}

/** The snapshot of a record read from `origin` (readingOf, snapshotOfReading); undefined for a record without a URL. */
export function snapshotOf(record: ApiRecord, origin: string): Snapshot | undefined {
  const reading = readingOf(record);
  return reading && snapshotOfReading(reading, origin);
}

/** A reading as a snapshot of `origin`: its place (the URL's identity, the project) worked out when first asked for. */
export function snapshotOfReading(reading: Reading, origin: string): Snapshot {
  return new ReadSnapshot(reading, origin);
}

class ReadSnapshot implements Snapshot {
  readonly reportId: string;
  readonly generatedAt: string;
  readonly score: number | undefined;
  readonly label: string | undefined;
  readonly checksText: string | undefined;
  private place: { identity: string; project: string | undefined } | undefined;
  private decoded: CheckState[] | undefined | null = null;

  constructor(
    private readonly reading: Reading,
    readonly origin: string,
  ) {
    this.reportId = reading[0];
    this.generatedAt = reading[1];
    this.score = reading[4] ?? undefined;
    this.label = reading[5] ?? undefined;
    this.checksText = reading[6] ?? undefined;
  }

  get identity() {
    return this.placeOf().identity;
  }
  get project() {
    return this.placeOf().project;
  }
  get checks() {
    if (this.decoded === null) this.decoded = decodeChecks(this.checksText);
    return this.decoded;
  }

  private placeOf() {
    if (!this.place) {
      const [, , url, project] = this.reading;
      this.place = { identity: reportIdentity(url), project: project ?? reportProject(url) };
    }
    return this.place;
  }
}

/**
 * A snapshot whose checks are decoded from their stored text when first read; `text`, when given, makes that text
 * itself when first read (a compact reading's, rebuilt from its states: a diff compares most readings by content id).
 */
export function withChecks(base: Omit<Snapshot, 'checks' | 'checksText'>, checksText: string | undefined, text?: () => string | undefined): Snapshot {
  let checks: CheckState[] | undefined | null = null;
  if (text === undefined) {
    return {
      ...base,
      checksText,
      get checks() {
        if (checks === null) checks = decodeChecks(checksText);
        return checks;
      },
    };
  }
  return {
    ...base,
    get checksText() {
      return text();
    },
    get checks() {
      if (checks === null) checks = decodeChecks(text());
      return checks;
    },
  };
}

/** A report's per-check results (phpRank's `results`) as encodeChecks writes them; undefined when it has none. */
function encodedChecksOf(record: ApiRecord): string | undefined {
  const results = record.results;
  if (!isObject(results)) return undefined;
  // Joined, not appended: one flat string, where `+=` left a chain of some 100 pieces a report for as long as the
  // reading waits to be written (SQLite gathers pages for up to 50 ms), through the collections meanwhile.
  const parts: string[] = [];
  for (const id in results) {
    const entry = results[id];
    if (!isObject(entry) || typeof entry.passed !== 'boolean') continue;
    parts.push(`${encodedId(id)}${entry.passed ? '+' : '-'}${valueHash(entry.value)}`);
  }
  return parts.length === 0 ? undefined : parts.join(' ');
}

const PLAIN_ID = /^[A-Za-z0-9_.~!*'()-]+$/;

function encodedId(id: string): string {
  return PLAIN_ID.test(id) ? id : encodeURIComponent(id);
}

/** Two hex digits of each byte: a hash written as four look-ups, not toString(16) and padStart (360,000 a run). */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * 8 hex digits of FNV-1a over the value (a string as it is, anything else as its JSON): enough to see that a value
 * changed, cheap for 36 checks a report.
 */
export function valueHash(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === undefined) text = '';
  else if (typeof value !== 'object' || value === null) text = String(value);
  else {
    try {
      text = JSON.stringify(value);
    } catch {
      // An id beyond 2^53 is kept exact as a BigInt, which JSON.stringify refuses.
      text = stringifyJson(value);
    }
  }
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${HEX[hash >>> 24]}${HEX[(hash >>> 16) & 0xff]}${HEX[(hash >>> 8) & 0xff]}${HEX[hash & 0xff]}`;
}

/**
 * 16 hex digits over a reading's score, label and checks text: what sets apart, in the store's unique key, two
 * readings of one report dated the same second. Never what a reading is compared by (the stored text is): two readings
 * that hashed the same would only be one snapshot again, as before. Two FNV-1a lanes with other primes, one pass.
 */
export function readingHash(score: number | null, label: string | null, checks: string | null): string {
  const text = `${score ?? ''}\u0000${label ?? '\u0001'}\u0000${checks ?? '\u0001'}`;
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    low = Math.imul(low ^ code, 0x01000193);
    high = Math.imul(high ^ code, 0x5bd1e995);
  }
  return `${(high >>> 0).toString(16).padStart(8, '0')}${(low >>> 0).toString(16).padStart(8, '0')}`;
}

/** `charset+1a2b3c4d title-9f8e7d6c`: the id (percent-encoded), + passed or - failed, the value's hash; about 20 bytes a check. */
export function encodeChecks(checks: readonly CheckState[]): string {
  return checks.map((check) => `${encodedId(check.id)}${check.passed ? '+' : '-'}${check.hash}`).join(' ');
}

/**
 * How many checks of an encoded text failed, read from the signs alone (SIGN_FROM_END): a trend of 100 runs then
 * decodes none of its 3,600 checks.
 */
export function failedCount(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  let failed = 0;
  for (let start = 0; start < text.length; ) {
    const end = partEnd(text, start);
    if (end - start >= SIGN_FROM_END && text.charCodeAt(end - SIGN_FROM_END) === MINUS) failed++;
    start = end + 1;
  }
  return failed;
}

/** The sign of a failed check in its encoded part. */
export const MINUS = '-'.charCodeAt(0);

/** How far a part's sign stands from the part's end: the value's hash (8 characters) follows it. */
export const SIGN_FROM_END = 9;

/** Where the encoded part starting at `from` ends: at the next space, or at the end of the text. */
export function partEnd(text: string, from: number): number {
  const space = text.indexOf(' ', from);
  return space < 0 ? text.length : space;
}

export function decodeChecks(text: string | undefined): CheckState[] | undefined {
  if (text === undefined) return undefined;
  if (text === '') return [];
  return text.split(' ').map((part) => {
    const sign = part.length - SIGN_FROM_END;
    return { id: decodeURIComponent(part.slice(0, sign)), passed: part[sign] === '+', hash: part.slice(sign + 1) };
  });
}

/**
 * A snapshot as a report record (seed dialect: `result` the label, `score` the number; `results` each check's passed
 * state, its value the hash): what a baseline from the history compares with, through the same record model.
 */
export function snapshotRecord(snapshot: Snapshot): Record<string, unknown> {
  const record: Record<string, unknown> = {
    id: reportIdValue(snapshot.reportId),
    url: snapshot.identity,
    project: snapshot.project,
    result: snapshot.label,
    score: snapshot.score,
    generated_at: snapshot.generatedAt,
  };
  if (snapshot.checks) record.results = Object.fromEntries(snapshot.checks.map((check) => [check.id, { passed: check.passed, value: check.hash }]));
  return record;
}

/** A report id as the service sent it: a whole number (every service seen) as a number, as `reports list --json` has it. */
export function reportIdValue(id: string): string | number {
  return /^(0|[1-9]\d{0,14})$/.test(id) ? Number(id) : id;
}

/**
 * Whether `reading` replaces `held` as a run's reading of its URL (a run that read one page twice, or two reports of
 * one URL): the newer one; of two as new, the one of the lower report id, whatever order they come in.
 */
export function isNewerReading(reading: Pick<Snapshot, 'generatedAt' | 'reportId'>, held: Pick<Snapshot, 'generatedAt' | 'reportId'> | undefined): boolean {
  return !held || reading.generatedAt > held.generatedAt || (reading.generatedAt === held.generatedAt && reading.reportId < held.reportId);
}
