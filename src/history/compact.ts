// The compact form a reading is stored in (issue 45): a page's reading is the checks' states against its check set
// (the ordered ids, stored once), and a later reading of the page only what differs from the last full one (a delta);
// generated_at in a short form when it is phpRank's. Everything here round-trips to the text encodeChecks writes: a
// text that would not (a hash that is not 8 hex digits, an id with a space) is stored as it is.

/** A reading's checks as stored: none, the text as it is, a full reading against a check set, or a delta. */
export type StoredChecks = { kind: 'none' } | { kind: 'raw'; text: string } | { kind: 'full'; ids: string; states: string } | { kind: 'delta'; states: string };

/** One check's state in a full reading: its sign and its value's hash (9 characters). */
const STATE = 9;
/** One part of a delta: the check's place in its set (2 base-36 digits), its sign and hash. */
const DELTA_PART = 2 + STATE;
/** Places a delta can name (2 base-36 digits). */
const MOST_PLACES = 36 * 36;
const HASH = /^[0-9a-f]{8}$/;

/**
 * The checks text split into its check set (the ids, one space apart, as encoded) and their states; undefined when it
 * does not split back into the same text.
 */
export function splitChecks(text: string): { ids: string; states: string } | undefined {
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
 * state; undefined when a delta would not be much smaller than the reading itself (past a third of it).
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

/** phpRank's generated_at (`2026-01-31T09:00:00.000000Z`), which `~` and its microseconds in base 36 stand for. */
const PHPRANK_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{6})Z$/;

/** generated_at as stored: phpRank's form as `~` and base-36 microseconds (11 characters for 27), any other as it is. */
export function storedTime(text: string): string {
  const match = PHPRANK_TIME.exec(text);
  if (match) {
    const [, year, month, day, hour, minute, second, micros] = match.map(Number) as number[];
    const ms = Date.UTC(year as number, (month as number) - 1, day, hour, minute, second);
    if (year !== undefined && year >= 1970 && Number.isSafeInteger(ms * 1000 + 999_999)) {
      const stored = `~${(ms * 1000 + (micros as number)).toString(36)}`;
      if (timeOfStored(stored) === text) return stored;
    }
  }
  // A text of its own that starts with `~` is marked with another.
  return text.startsWith('~') ? `~${text}` : text;
}

/** storedTime's inverse. */
export function timeOfStored(stored: string): string {
  if (!stored.startsWith('~')) return stored;
  if (stored.startsWith('~~')) return stored.slice(1);
  const micros = Number.parseInt(stored.slice(1), 36);
  const date = new Date(Math.floor(micros / 1000));
  return `${date.toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
}
