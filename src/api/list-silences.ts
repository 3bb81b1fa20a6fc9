// What a list's service silently did not do: an order asked for and not kept, a filter asked for and not applied (phpRank ignores what it does not know).
import type { ApiRecord } from './model/record.js';
import type { ProjectListParams } from './projects.js';
import { readReport } from './model/report-model.js';
import { projectName } from './model/report-url.js';
import type { ReportListParams, SortDirection } from './reports.js';
import { timestampOf } from './model/timestamps.js';

/** One thing asked for and not honoured, named by its flag (`--sort-by score`, `--result bad`). */
export interface Silence {
  flag: string;
  kind: 'order' | 'filter';
  /** For a filter: how many of the records seen do not match it, of how many checked. */
  misses?: number;
  checked?: number;
}

type Key = number | bigint | string;

interface OrderCheck {
  flag: string;
  direction: SortDirection | undefined;
  key(record: ApiRecord): Key | undefined;
  /** <0, 0, >0 as a sorts before, with or after b; undefined when it cannot be told for sure. */
  compare(a: Key, b: Key): number | undefined;
  /** Whether the client can sort by it itself (numbers and times; text collates as the database does, not as we do). */
  sortable?: boolean;
}

/** A client-side order: the comparator, and the flag it stands in for. */
export interface ClientOrder {
  flag: string;
  compare(a: ApiRecord, b: ApiRecord): number;
}

interface FilterCheck {
  flag: string;
  /** undefined when the record does not say (no such field): neither a match nor a miss. */
  matches(record: ApiRecord): boolean | undefined;
}

/**
 * Watches the records of a list as they stream, across pages: each adjacent pair against the order asked for (when
 * no direction was asked, one direction throughout), each record against the filters asked for. It only reports
 * what it can tell for sure: a pair it cannot compare (a field missing, two URLs that first differ in punctuation,
 * which databases collate differently) is left alone, so a service that did what was asked is never accused.
 */
export class ListSilences {
  private previous: Key | undefined;
  /** The direction the records have run in so far, when none was asked for. */
  private seenDirection = 0;
  private orderBroken = false;
  private readonly misses = new Map<string, { misses: number; checked: number }>();

  constructor(
    private readonly order: OrderCheck | undefined,
    private readonly filters: FilterCheck[],
  ) {}

  /** Nothing asked that could be ignored: no need to look at the records. */
  get idle(): boolean {
    return this.order === undefined && this.filters.length === 0;
  }

  see(record: ApiRecord): void {
    if (this.order && !this.orderBroken) this.seeOrder(this.order, record);
    for (const filter of this.filters) {
      const matches = filter.matches(record);
      if (matches === undefined) continue;
      const count = this.misses.get(filter.flag) ?? { misses: 0, checked: 0 };
      count.checked++;
      if (!matches) count.misses++;
      this.misses.set(filter.flag, count);
    }
  }

  /**
   * The order asked, as a comparator the client can sort a whole list by when the service ignored it (phpRank and
   * `sort_by=generated_at`): by numbers or times only, in the direction asked (else descending, phpRank's default),
   * records that lack the key last. Undefined when no order was asked or it is one of text.
   */
  clientOrder(): ClientOrder | undefined {
    const order = this.order;
    if (order?.sortable !== true) return undefined;
    const sign = order.direction === 'asc' ? 1 : -1;
    return {
      flag: order.flag,
      compare: (a, b) => {
        const [x, y] = [order.key(a), order.key(b)];
        if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
        return sign * (order.compare(x, y) ?? 0);
      },
    };
  }

  /** Whether the records so far broke the order asked. */
  get orderIgnored(): boolean {
    return this.orderBroken;
  }

  /** Each flag the service did not honour, once. */
  found(): Silence[] {
    const silences: Silence[] = [];
    if (this.order && this.orderBroken) silences.push({ flag: this.order.flag, kind: 'order' });
    for (const [flag, count] of this.misses) if (count.misses > 0) silences.push({ flag, kind: 'filter', ...count });
    return silences;
  }

  private seeOrder(order: OrderCheck, record: ApiRecord): void {
    const key = order.key(record);
    if (key === undefined) return;
    const previous = this.previous;
    this.previous = key;
    if (previous === undefined) return;
    const sign = Math.sign(order.compare(previous, key) ?? 0);
    if (sign === 0) return;
    const wanted = order.direction === 'asc' ? -1 : order.direction === 'desc' ? 1 : this.seenDirection || sign;
    if (sign !== wanted) this.orderBroken = true;
    this.seenDirection = wanted;
  }
}

/** The checks for `GET /reports` with these parameters. */
export function reportListSilences(params: ReportListParams): ListSilences {
  const filters: FilterCheck[] = [];
  if (params.result !== undefined) {
    const result = params.result;
    filters.push({ flag: `--result ${result}`, matches: (record) => matchOrUnknown(readReport(record).label, (label) => label === result) });
  }
  if (params.project !== undefined) {
    const project = projectName(params.project);
    filters.push({ flag: `--project ${params.project}`, matches: (record) => matchOrUnknown(text(record.project), (value) => projectName(value) === project) });
  }
  if (params.search !== undefined) {
    const search = params.search;
    filters.push({ flag: `--search ${search}`, matches: (record) => matchOrUnknown(text(record.url), (url) => urlContains(url, search)) });
  }
  return new ListSilences(params.sortBy === undefined ? undefined : reportOrder(params.sortBy, params.sort), filters);
}

/** The checks for `GET /projects` with these parameters. */
export function projectListSilences(params: ProjectListParams): ListSilences {
  const filters: FilterCheck[] = [];
  if (params.search !== undefined) {
    const search = params.search.toLowerCase();
    filters.push({
      flag: `--search ${params.search}`,
      matches: (record) => matchOrUnknown(text(record.project), (name) => name.toLowerCase().includes(search)),
    });
  }
  const order: OrderCheck | undefined =
    params.sortBy === undefined
      ? undefined
      : params.sortBy === 'project'
        ? { flag: '--sort-by project', direction: params.sort, key: (record) => text(record.project), compare: compareText }
        : {
            flag: '--sort-by created_at',
            direction: params.sort,
            key: (record) => timestampOf(record.created_at),
            compare: compareNumbers,
            sortable: true,
          };
  return new ListSilences(order, filters);
}

function reportOrder(sortBy: NonNullable<ReportListParams['sortBy']>, direction: SortDirection | undefined): OrderCheck {
  const flag = `--sort-by ${sortBy}`;
  switch (sortBy) {
    case 'id':
      return { flag, direction, key: (record) => integer(record.id), compare: compareNumbers, sortable: true };
    case 'score':
      return { flag, direction, key: (record) => readReport(record).score, compare: compareNumbers, sortable: true };
    case 'generated_at':
      return { flag, direction, key: (record) => timestampOf(record.generated_at), compare: compareNumbers, sortable: true };
    case 'url':
      return { flag, direction, key: (record) => text(record.url), compare: compareText };
  }
}

function matchOrUnknown<T>(value: T | undefined, test: (value: T) => boolean): boolean | undefined {
  return value === undefined ? undefined : test(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** An id as an exact integer (ids past 2^53 arrive as bigint), or undefined. */
function integer(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return BigInt(value.trim());
  return undefined;
}

function compareNumbers(a: Key, b: Key): number | undefined {
  if (typeof a === 'string' || typeof b === 'string') return undefined;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Text as any database collation orders it, or undefined: case aside, letters and digits collate alike everywhere,
 * but punctuation (`-`, `.`, `/`) does not, so two values whose first difference is punctuation are not compared.
 */
function compareText(a: Key, b: Key): number | undefined {
  if (typeof a !== 'string' || typeof b !== 'string') return undefined;
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let at = 0;
  while (at < left.length && at < right.length && left[at] === right[at]) at++;
  if (at === left.length || at === right.length) return left.length - right.length;
  const [x, y] = [left[at]!, right[at]!];
  if (!/[a-z0-9]/.test(x) || !/[a-z0-9]/.test(y)) return undefined;
  return x < y ? -1 : 1;
}

/**
 * Whether a report's URL matches a search term as either dialect matches it: the seed service searches the URL as
 * stored (scheme and all), phpRank its cleaned form for the cleaned term (no scheme, no `www.`).
 */
function urlContains(url: string, term: string): boolean {
  const clean = (value: string) =>
    value
      .trim()
      .toLowerCase()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
      .replace(/^www\./, '');
  if (url.toLowerCase().includes(term.trim().toLowerCase())) return true;
  return clean(url).includes(clean(term).replace(/\/+$/, ''));
}
