// Per-check results (phpRank's `results`): the 36 check ids, their names in words, and one report's outcomes read
// tolerantly. The one place that knows check ids, names and the order of importance.
import { isObject, type ApiRecord } from './record.js';

export const IMPORTANCES = ['high', 'medium', 'low'] as const;
export type Importance = (typeof IMPORTANCES)[number];

/** Every check phpRank runs, id => name in words. */
export const CHECK_NAMES = {
  '404_page': 'Custom 404 page',
  charset: 'Charset',
  content_keywords: 'Content keywords',
  content_length: 'Content length',
  defer_javascript: 'Deferred JavaScript',
  deprecated_html_tags: 'Deprecated HTML tags',
  doctype: 'Doctype',
  dom_size: 'DOM size',
  favicon: 'Favicon',
  headings: 'Headings',
  htst: 'HSTS',
  http2: 'HTTP/2',
  http_requests: 'HTTP requests',
  https_encryption: 'HTTPS encryption',
  image_format: 'Image format',
  image_keywords: 'Image keywords (alt text)',
  in_page_links: 'In-page links',
  inline_css: 'Inline CSS',
  language: 'Language',
  load_time: 'Load time',
  meta_description: 'Meta description',
  meta_viewport: 'Meta viewport',
  mixed_content: 'Mixed content',
  noindex: 'Noindex',
  page_size: 'Page size',
  plaintext_email: 'Plain-text email',
  robots: 'Robots.txt',
  seo_friendly_url: 'SEO-friendly URL',
  server_signature: 'Server signature',
  sitemap: 'Sitemap',
  social: 'Social media tags',
  structured_data: 'Structured data',
  text_compression: 'Text compression',
  text_html_ratio: 'Text to HTML ratio',
  title: 'Title',
  unsafe_cross_origin_links: 'Unsafe cross-origin links',
} as const satisfies Record<string, string>;

export type CheckId = keyof typeof CHECK_NAMES;

/** What a measured check's number counts. */
export type CheckUnit = 'seconds' | 'bytes' | 'words' | 'nodes' | 'requests' | 'links' | 'percent';

/** A measured check: the unit of its value (and of the numbers in its errors), and the limit it fails past, if any. */
export interface CheckMeasure {
  unit: CheckUnit;
  /** The check fails above `over` or below `under` (phpRank's default report limits; an admin may change them). */
  over?: number;
  under?: number;
}

/**
 * The checks phpRank measures, with the limits of a default install (its admin's "report limits"): load time in
 * seconds over 2, page size in bytes over 330 kB, more than 50 requests, 1,500 DOM nodes or 150 links, fewer than
 * 500 words, a text to HTML ratio under 10%.
 */
export const CHECK_MEASURES: Readonly<Partial<Record<CheckId, CheckMeasure>>> = {
  load_time: { unit: 'seconds', over: 2 },
  page_size: { unit: 'bytes', over: 330_000 },
  http_requests: { unit: 'requests', over: 50 },
  dom_size: { unit: 'nodes', over: 1500 },
  in_page_links: { unit: 'links', over: 150 },
  content_length: { unit: 'words', under: 500 },
  text_html_ratio: { unit: 'percent', under: 10 },
};

/** The unit and limit of a check's value, or undefined for a check that is not a measure. */
export function checkMeasure(id: string): CheckMeasure | undefined {
  return isCheckId(id) ? CHECK_MEASURES[id] : undefined;
}
export const CHECK_IDS = Object.keys(CHECK_NAMES) as CheckId[];

export function isCheckId(id: string): id is CheckId {
  return Object.hasOwn(CHECK_NAMES, id);
}

/** The name in words of a check id; an id this client does not know (a newer phpRank) is shown as it came. */
export function checkName(id: string): string {
  return isCheckId(id) ? CHECK_NAMES[id] : id;
}

export interface CheckOutcome {
  id: string;
  passed: boolean;
  /** undefined when the service did not say (or said something else). */
  importance: Importance | undefined;
  value: unknown;
  /** What was wrong, as the service sent it (only on a failed check). */
  errors: unknown;
}

function asImportance(value: unknown): Importance | undefined {
  return typeof value === 'string' && (IMPORTANCES as readonly string[]).includes(value) ? (value as Importance) : undefined;
}

/** A report's per-check results, or undefined when it carries none (the seed dialect). */
export function reportChecks(record: ApiRecord): CheckOutcome[] | undefined {
  // A slimmed record's are read from its packed entries: `results` would be rebuilt whole, then walked again (the end
  // of a 50,000-page run reads each record's checks three times: its comparison, its counts, its row of the page).
  if (Object.getPrototypeOf(record) === SLIM_RECORD) return packedChecks((record as { [PACKED]: PackedResults })[PACKED]);
  const results = record.results;
  if (!isObject(results)) return undefined;
  const outcomes: CheckOutcome[] = [];
  for (const [id, entry] of Object.entries(results)) addOutcome(outcomes, id, entry);
  return outcomes.length > 0 ? outcomes : undefined;
}

/** `entry`'s outcome added to `outcomes` (none for an entry that is not one); `share`: a shared entry (frozen), its outcome shared too. */
function addOutcome(outcomes: CheckOutcome[], id: string, entry: unknown, share = false): void {
  if (!isObject(entry) || typeof entry.passed !== 'boolean') return;
  const outcome: CheckOutcome = { id, passed: entry.passed, importance: asImportance(entry.importance), value: entry.value, errors: entry.errors };
  outcomes.push(share ? sharedOutcome(entry, outcome) : outcome);
}

/**
 * The outcome of a shared entry (a passed check's, or a kept text's parsed back) as slimmed records share it, per entry
 * and id: frozen, at most 4,096.
 */
const SHARED_OUTCOMES = new Map<unknown, Map<string, CheckOutcome>>();
const MAX_SHARED_OUTCOMES = 4_096;

/**
 * reportChecks of a slimmed record: its entries in the order sent, a kept text parsed back in its place, and the
 * outcome of a shared entry shared by every record that holds it. 150,000 reads of 50,000 records made 4.5 million
 * outcomes of passed checks; then, at the end of a 50,000-page audit, 140 MB of failed ones.
 */
function packedChecks({ ids, entries, kept }: PackedResults): CheckOutcome[] | undefined {
  const outcomes: CheckOutcome[] = [];
  let next = 0;
  for (let index = 0; index < ids.length; index++) {
    const coded = entryAt(entries, index);
    const entry = coded === IN_TEXT ? parsedEntry(kept?.[next++] ?? 'null') : coded;
    const id = ids[index] as string;
    const shared = SHARED_OUTCOMES.get(entry)?.get(id);
    if (shared !== undefined) outcomes.push(shared);
    else addOutcome(outcomes, id, entry, Object.isFrozen(entry));
  }
  return outcomes.length > 0 ? outcomes : undefined;
}

/** The entries of kept texts parsed back, by text: frozen, at most 4,096 (the texts records alike share, ENTRY_TEXTS). */
const PARSED_ENTRIES = new Map<string, unknown>();

/** A kept text's entry: parsed once for every record and read that holds it (half of a phpRank report's checks fail). */
function parsedEntry(text: string): unknown {
  let entry = PARSED_ENTRIES.get(text);
  if (entry === undefined) {
    entry = JSON.parse(text);
    if (PARSED_ENTRIES.size < MAX_ENTRY_TEXTS && text.length <= 1_000) PARSED_ENTRIES.set(text, deepFreeze(entry));
  }
  return entry;
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function sharedOutcome(entry: unknown, outcome: CheckOutcome): CheckOutcome {
  let byId = SHARED_OUTCOMES.get(entry);
  if (byId === undefined) {
    if (SHARED_OUTCOMES.size >= MAX_SHARED_OUTCOMES) return outcome;
    byId = new Map();
    SHARED_OUTCOMES.set(entry, byId);
  }
  if (byId.size < MAX_SHARED_OUTCOMES) byId.set(outcome.id, Object.freeze(outcome));
  return outcome;
}

/** An importance's place in the order, high first; one the service did not give comes after low. */
export function importanceRank(importance: Importance | null | undefined): number {
  // IMPORTANCES' order spelled out, no look-up: the comparator of every sort of a report's checks (millions of calls in a big run).
  return importance === 'high' ? 0 : importance === 'medium' ? 1 : importance === 'low' ? 2 : IMPORTANCES.length;
}

/** Failed checks, most important first, then by id. */
export function failedChecks(outcomes: readonly CheckOutcome[]): CheckOutcome[] {
  const byId = (a: CheckOutcome, b: CheckOutcome) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return outcomes.filter((c) => !c.passed).sort((a, b) => importanceRank(a.importance) - importanceRank(b.importance) || byId(a, b));
}

/** The failed check ids of a report, most important first, comma-separated as --fail-on-check takes them; undefined when it carries no checks. */
export function failedCheckIds(record: ApiRecord): string | undefined {
  const outcomes = reportChecks(record);
  return outcomes === undefined
    ? undefined
    : failedChecks(outcomes)
        .map((check) => check.id)
        .join(',');
}

/** The entry of a passed check as a slimmed record keeps it: one shared object per importance sent. */
const PASSED_ENTRIES = new Map<unknown, Readonly<Record<string, unknown>>>();

function passedEntry(importance: unknown): Readonly<Record<string, unknown>> {
  // An importance other than a short word (what no phpRank sends) is kept in an entry of its own, not shared.
  if (importance !== undefined && typeof importance !== 'string') return { passed: true, importance };
  let entry = PASSED_ENTRIES.get(importance);
  if (entry === undefined) {
    entry = Object.freeze(importance === undefined ? { passed: true } : { passed: true, importance });
    PASSED_ENTRIES.set(importance, entry);
  }
  return entry;
}

/** The check ids of records alike, in their order, made once (a bounded number of lists). */
const ID_LISTS = new Map<string, readonly string[]>();
const MAX_ID_LISTS = 256;

function sharedIds(ids: string[]): readonly string[] {
  const key = ids.join('\n');
  const held = ID_LISTS.get(key);
  if (held !== undefined) return held;
  if (ID_LISTS.size < MAX_ID_LISTS) ID_LISTS.set(key, ids);
  return ids;
}

/**
 * A slimmed record's per-check results: the ids (shared) and, in their order, each check's entry; the entry of each
 * check it did not pass held as its JSON text (`kept`, in order; IN_TEXT in its place), the same text shared by records
 * alike: a site's pages fail alike, and a text costs a fraction of its objects.
 */
interface PackedResults {
  ids: readonly string[];
  /** Each check's entry, in order: a character each (codedEntries) when every one is shared, else the entries. */
  entries: string | readonly unknown[];
  kept: readonly string[] | undefined;
}

/** An entry's place in a slimmed record's `kept` texts. */
const IN_TEXT = Object.freeze({});

/** The entries records share, by their code in codedEntries: IN_TEXT, then each passed check's entry as first met (at most 256). */
const CODED_ENTRIES: unknown[] = [IN_TEXT];
const ENTRY_CODES = new Map<unknown, number>([[IN_TEXT, 0]]);

/**
 * A record's entries as one character each, when each is shared (IN_TEXT, a passed check's frozen entry): a string of
 * 36 characters (56 bytes) where an array of 36 took 330 bytes, for each page a run of 50,000 pages holds. Else the
 * entries as they are.
 */
function codedEntries(entries: readonly unknown[]): string | readonly unknown[] {
  if (entries.length > 4_096) return entries;
  const codes: number[] = [];
  for (const entry of entries) {
    let code = ENTRY_CODES.get(entry);
    if (code === undefined) {
      if (typeof entry !== 'object' || entry === null || !Object.isFrozen(entry) || CODED_ENTRIES.length >= 256) return entries;
      code = CODED_ENTRIES.push(entry) - 1;
      ENTRY_CODES.set(entry, code);
    }
    codes.push(code);
  }
  return String.fromCharCode(...codes);
}

function entryAt(entries: string | readonly unknown[], index: number): unknown {
  return typeof entries === 'string' ? CODED_ENTRIES[entries.charCodeAt(index)] : entries[index];
}

/** The JSON texts of entries of checks not passed, shared by records alike (at most 4,096, each at most 1,000 characters). */
const ENTRY_TEXTS = new Map<string, string>();
const MAX_ENTRY_TEXTS = 4_096;

function sharedText(text: string): string {
  const held = ENTRY_TEXTS.get(text);
  if (held !== undefined) return held;
  if (ENTRY_TEXTS.size < MAX_ENTRY_TEXTS && text.length <= 1_000) ENTRY_TEXTS.set(text, text);
  return text;
}

/**
 * The entries of checks not passed (objects) as their JSON texts, IN_TEXT left in their places; undefined (the entries
 * left as they are) when there are none, or one that JSON does not give back as it was (a bigint).
 */
function keptTexts(entries: unknown[]): string[] | undefined {
  // A passed check's shared entry is frozen: it stays in its place.
  const places = [...entries.keys()].filter((index) => isObject(entries[index]) && !Object.isFrozen(entries[index]));
  if (places.length === 0) return undefined;
  let texts: string[];
  try {
    texts = places.map((index) => sharedText(JSON.stringify(entries[index])));
  } catch {
    return undefined;
  }
  for (const index of places) entries[index] = IN_TEXT;
  return texts;
}

const PACKED = Symbol('packed results');

/** The prototype of slimmed records: `results` is rebuilt from the packed entries each time it is read. */
const SLIM_RECORD = Object.create(Object.prototype, {
  results: {
    get(this: { [PACKED]: PackedResults }) {
      const { ids, entries, kept } = this[PACKED];
      let next = 0;
      const results: Record<string, unknown> = {};
      ids.forEach((id, index) => {
        const entry = entryAt(entries, index);
        results[id] = entry === IN_TEXT ? JSON.parse(kept?.[next++] ?? 'null') : entry;
      });
      return results;
    },
  },
}) as object;

/**
 * A record as a run keeps it until its files are written (a run of 50,000 pages holds one a page): every field but
 * the value and errors of each check it passed, which no file shows (they count passed checks, and show a failed
 * check's value and what was wrong). Its checks are packed (the ids shared by records alike, a passed check one shared
 * entry) and `results` is rebuilt, in the order sent, when read. A record with no per-check results, or slimmed already, is
 * returned as it is.
 */
export function withoutPassedValues(record: ApiRecord): ApiRecord {
  // Slimmed already: the same record, not another copy of it.
  if (Object.getPrototypeOf(record) === SLIM_RECORD) return record;
  const results = record.results;
  if (!isObject(results)) return record;
  const ids: string[] = [];
  const entries: unknown[] = [];
  for (const [id, entry] of Object.entries(results)) {
    ids.push(id);
    entries.push(isObject(entry) && entry.passed === true ? passedEntry(entry.importance) : entry);
  }
  const slim = Object.create(SLIM_RECORD) as ApiRecord & { [PACKED]: PackedResults };
  for (const [key, value] of Object.entries(record)) if (key !== 'results') slim[key] = value;
  const kept = keptTexts(entries);
  Object.defineProperty(slim, PACKED, { value: { ids: sharedIds(ids), entries: codedEntries(entries), kept } });
  return slim;
}
