// A report as the history keeps it: identity, id, project, score, label, generated_at and each check's passed state
// with a short hash of its value (never the value, never the whole record), and that compact form's encoding.
import { stringifyJson } from '../api/http/json.js';
import { isObject, type ApiRecord } from '../api/model/record.js';
import { readReport } from '../api/model/report-model.js';
import { reportIdentity, reportProject } from '../api/model/report-url.js';
import { phpRankTime } from '../api/model/timestamps.js';
import type { CheckSplit, CheckState, Reading, Snapshot } from './types.js';

/**
 * The reading of a record; undefined for a record without a URL (nothing to follow over time). The checks are encoded
 * straight from the record (no object a check; a run over 10,000 reports makes 360,000 of them), by `encoder`: a
 * recorder passes its own, which keeps the last record's check set.
 */
export function readingOf(record: ApiRecord, encoder: ChecksEncoder = new ChecksEncoder()): Reading | undefined {
  const { url } = record;
  if (typeof url !== 'string' || url.trim() === '') return undefined;
  const { label, score } = readReport(record);
  const checks = encoder.encode(record.results);
  return [
    record.id === undefined || record.id === null ? '' : String(record.id),
    typeof record.generated_at === 'string' ? record.generated_at : '',
    url,
    typeof record.project === 'string' && record.project !== '' ? record.project : null,
    score ?? null,
    label ?? null,
    checks?.ids ?? null,
    checks?.checks ?? null,
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
  /** Made when asked for: the store writes a reading's split form (checkSplit), and only PostgreSQL sends the text. */
  get checksText() {
    const [, , , , , , ids, checks] = this.reading;
    if (checks === null) return undefined;
    return ids === null ? checks : joinChecks(ids.split(' '), checks);
  }
  get checkSplit() {
    const [, , , , , , ids, states] = this.reading;
    return ids === null || states === null ? undefined : { ids, states };
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

/**
 * Encodes records' per-check results (phpRank's `results`) as the store keeps them (splitChecks' two parts): the check
 * set, its ids encoded one space apart, and each check's state (its sign and the value's hash), in order. The ids of the
 * last record are kept: a run's reports share a check set, so each id is encoded once a run, and the readings of one
 * set share one string of its ids.
 */
export class ChecksEncoder {
  private raw: string[] = [];
  private encoded: string[] = [];
  /** The last set's ids, one space apart; null when one of them encodes to nothing (a text that would not split). */
  private ids: string | null = null;
  /** The states as character codes, written here and made a string once a record (the buffer kept for the next). */
  private states = Buffer.allocUnsafe(64 * STATE);

  /**
   * The check set and states of `results`, or (`ids` null) the checks text when it would not split (an empty id);
   * undefined when it has no checks.
   */
  encode(results: unknown): { ids: string | null; checks: string } | undefined {
    if (!isObject(results)) return undefined;
    let count = 0;
    let same = true;
    for (const id in results) {
      const entry = results[id];
      if (!isObject(entry) || typeof entry.passed !== 'boolean') continue;
      if (same && this.raw[count] !== id) {
        same = false;
        this.raw.length = count;
        this.encoded.length = count;
      }
      if (!same) {
        this.raw.push(id);
        this.encoded.push(encodedId(id));
      }
      if ((count + 1) * STATE > this.states.length) this.states = Buffer.concat([this.states, Buffer.allocUnsafe(this.states.length)]);
      writeState(this.states, count * STATE, entry.passed, fnv(entry.value));
      count++;
    }
    if (count === 0) return undefined;
    if (!same || this.raw.length !== count) {
      this.raw.length = count;
      this.encoded.length = count;
      this.ids = this.encoded.includes('') ? null : this.encoded.join(' ');
    }
    const states = this.states.toString('latin1', 0, count * STATE);
    if (this.ids !== null) return { ids: this.ids, checks: states };
    return { ids: null, checks: this.encoded.map((id, index) => id + states.slice(index * STATE, (index + 1) * STATE)).join(' ') };
  }
}

const HEX_DIGITS = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const PLUS = '+'.charCodeAt(0);

/** A check's state at `at`: its sign and valueHash's 8 digits (of `hash`, fnv's). */
function writeState(into: Buffer, at: number, passed: boolean, hash: number): void {
  into[at] = passed ? PLUS : MINUS;
  for (let digit = 1; digit <= 8; digit++) into[at + digit] = HEX_DIGITS[(hash >>> (32 - 4 * digit)) & 0xf] as number;
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
  const hash = fnv(value);
  return `${HEX[hash >>> 24]}${HEX[(hash >>> 16) & 0xff]}${HEX[(hash >>> 8) & 0xff]}${HEX[hash & 0xff]}`;
}

function fnv(value: unknown): number {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === null) return NULL_HASH;
  else if (typeof value === 'boolean') return value ? TRUE_HASH : FALSE_HASH;
  else if (value === undefined) text = '';
  else if (typeof value !== 'object') text = String(value);
  else if (Array.isArray(value) && value.length === 0) return EMPTY_ARRAY_HASH;
  else {
    try {
      text = JSON.stringify(value);
    } catch {
      // An id beyond 2^53 is kept exact as a BigInt, which JSON.stringify refuses.
      text = stringifyJson(value);
    }
  }
  return fnvOfText(text);
}

function fnvOfText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

// The values most checks hold (a phpRank report's 36: a third null or an empty list), hashed once.
const NULL_HASH = fnvOfText('null');
const TRUE_HASH = fnvOfText('true');
const FALSE_HASH = fnvOfText('false');
const EMPTY_ARRAY_HASH = fnvOfText('[]');

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

// The compact form a reading is stored in (issue 45): a page's reading is the checks' states against its check set
// (the ordered ids, stored once), and a later reading of the page only what differs from the last full one (a delta);
// generated_at in a short form when it is phpRank's. Everything here round-trips to the text encodeChecks writes: a
// text that would not (a hash that is not 8 hex digits, an id with a space) is stored as it is.

/** A reading's checks as stored: none, the text as it is, a full reading against a check set, or a delta. */
export type StoredChecks = { kind: 'none' } | { kind: 'raw'; text: string } | { kind: 'full'; ids: string; states: string } | { kind: 'delta'; states: string };

/** One check's state in a full reading: its sign and its value's hash (9 characters). */
export const STATE = 9;
/** One part of a delta: the check's place in its set (2 base-36 digits), its sign and hash. */
export const DELTA_PART = 2 + STATE;
/** Places a delta can name (2 base-36 digits). */
export const MOST_PLACES = 36 * 36;
const HASH = /^[0-9a-f]{8}$/;

/**
 * The checks text split into its check set (the ids, one space apart, as encoded) and their states; undefined when it
 * does not split back into the same text.
 */
export function splitChecks(text: string): CheckSplit | undefined {
  if (text === '') return undefined;
  const ids: string[] = [];
  const states: string[] = [];
  for (const part of text.split(' ')) {
    const sign = part.length - STATE;
    const hash = part.slice(sign + 1);
    if (sign < 1 || (part[sign] !== '+' && part[sign] !== '-') || !HASH.test(hash)) return undefined;
    ids.push(part.slice(0, sign));
    states.push(part.slice(sign));
  }
  return { ids: ids.join(' '), states: states.join('') };
}

/** The checks text of a check set's ids and a full reading's states (splitChecks' inverse). */
export function joinChecks(ids: readonly string[], states: string): string {
  const parts = new Array<string>(ids.length);
  for (let index = 0; index < ids.length; index++) parts[index] = ids[index] + states.slice(index * STATE, (index + 1) * STATE);
  return parts.join(' ');
}

/**
 * What differs in `states` from the full reading `base` (both of one check set): each differing check's place and
 * state; undefined when a delta would not be much smaller than the reading itself (past a third of it). PostgreSQL's
 * page write works out the same in SQL (sql.ts: deltaSql).
 */
export function deltaOf(base: string, states: string): string | undefined {
  if (base.length !== states.length || states.length / STATE > MOST_PLACES) return undefined;
  const parts: string[] = [];
  const most = Math.floor(states.length / 3 / DELTA_PART);
  for (let at = 0; at < states.length; at += STATE) {
    if (states.startsWith(base.slice(at, at + STATE), at)) continue;
    if (parts.length >= most) return undefined;
    parts.push((at / STATE).toString(36).padStart(2, '0') + states.slice(at, at + STATE));
  }
  return parts.join('');
}

/** A full reading's states with a delta applied. */
export function applyDelta(base: string, delta: string): string {
  if (delta === '') return base;
  let states = base;
  for (let at = 0; at < delta.length; at += DELTA_PART) {
    const place = Number.parseInt(delta.slice(at, at + 2), 36) * STATE;
    states = states.slice(0, place) + delta.slice(at + 2, at + DELTA_PART) + states.slice(place + STATE);
  }
  return states;
}

/** generated_at as stored: phpRank's form (`2026-01-31T09:00:00.000000Z`) as `~` and base-36 microseconds (11 characters for 27), any other as it is. */
export function storedTime(text: string): string {
  const time = phpRankTime(text);
  // Only a time timeOfStored gives back as it was: from 1970 on, the microseconds within what a double holds exactly.
  if (time && time.ms >= 0 && Number.isSafeInteger(time.ms * 1000 + 999_999)) return `~${base36(time.ms * 1000 + time.micros)}`;
  // A text of its own that starts with `~` is marked with another.
  return text.startsWith('~') ? `~${text}` : text;
}

const BASE36_DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A whole number's base-36 digits, as toString(36) writes them: a fifth of its time (V8 converts any double that way). */
function base36(whole: number): string {
  let digits = '';
  let rest = whole;
  do {
    const next = Math.floor(rest / 36);
    digits = BASE36_DIGITS[rest - next * 36] + digits;
    rest = next;
  } while (rest > 0);
  return digits;
}

/** storedTime's inverse. */
export function timeOfStored(stored: string): string {
  if (!stored.startsWith('~')) return stored;
  if (stored.startsWith('~~')) return stored.slice(1);
  const micros = Number.parseInt(stored.slice(1), 36);
  const date = new Date(Math.floor(micros / 1000));
  return `${date.toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
}

/** What a snapshot read back from a store carries of its stored form (sql-store.ts marks it; diff.ts reads it). */
export interface StoredReading {
  /** The id of the content (score, label, checks) it read: two snapshots of one content are the same reading. */
  readonly contentId: number;
  /** Whether that content has checks (a non-empty checks text): known without rebuilding the text. */
  readonly withChecks: boolean;
  /**
   * Its checks as their check set (its id and ids, encoded as in the text) and each one's sign (`+` passed, `-`
   * failed), in order, without the text rebuilt; undefined for a content stored as text (or none).
   */
  readonly signs: () => CheckSigns | undefined;
}

/** A stored reading's checks as their check set and signs (StoredReading.signs). */
export interface CheckSigns {
  readonly set: number;
  readonly ids: readonly string[];
  readonly signs: string;
}

/** Each check's sign (`+`, `-`) of a full reading's states, in order: one flat string (a baseline holds it a page). */
export function signsOf(states: string): string {
  const signs: string[] = [];
  for (let at = 0; at < states.length; at += STATE) signs.push(states[at] as string);
  return signs.join('');
}

/** Kept here, beside the snapshot, not in sql-store.ts: a diff reads it without loading the store (a help loads neither). */
const STORED = Symbol('stored reading');

/** The stored form of a snapshot read back, when it was (never written out: not enumerable). */
export function storedReadingOf(snapshot: Snapshot): StoredReading | undefined {
  return (snapshot as { [STORED]?: StoredReading })[STORED];
}

/** Marks a snapshot read back from a store with its stored form. */
export function markStored(snapshot: Snapshot, stored: StoredReading): void {
  Object.defineProperty(snapshot, STORED, { value: stored, enumerable: false });
}
