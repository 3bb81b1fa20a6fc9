// The history's readings in their compact form (issue 45, migration 4): a snapshot read back from its page and its
// content (compact.ts rebuilds the checks text), and a batch of new readings written as pages, contents (shared with
// the page's newest when the same, else a delta against its last full reading, else full) and snapshots.
import { applyDelta, deltaOf, joinChecks, splitChecks, storedTime, timeOfStored } from './compact.js';
import { encodeChecks, withChecks } from './snapshot.js';
import { ROWS_A_STATEMENT, SQL, type SqlConnection, type SqlRow, type SqlValue } from './sql.js';
import type { Snapshot } from './types.js';

/** What the store knows of a snapshot read back beside its fields: its content's id (two alike are the same reading). */
export interface StoredReading {
  /** The id of the content (score, label, checks) it read: two snapshots of one content are the same reading. */
  readonly contentId: number;
  /** Whether that content has checks (a non-empty checks text): known without rebuilding the text. */
  readonly withChecks: boolean;
}

/** The stored form of a snapshot read back, when it was (never written out: not enumerable). */
export function storedReadingOf(snapshot: Snapshot): StoredReading | undefined {
  return (snapshot as { [STORED]?: StoredReading })[STORED];
}

const STORED = Symbol('stored reading');

/** A page's newest content, as a new reading of the page is compared with it and written against it. */
interface NewestContent {
  id: number;
  score: number | undefined;
  label: string | undefined;
  text: () => string | undefined;
  /** The page's last full reading: the one a delta is written against. */
  full: { id: number; set: number; states: string } | undefined;
}

interface PageRow {
  id: number;
  identity: string;
  project: string | undefined;
}

/** The readings of one store: its check sets known (a few), read and written through its connection. */
export class Readings {
  private readonly setIds = new Map<number, string[]>();
  private readonly setOfIds = new Map<string, number>();

  constructor(private readonly db: SqlConnection) {}

  /** Forgets the check sets known (a transaction that added one was rolled back). */
  forget(): void {
    this.setIds.clear();
    this.setOfIds.clear();
  }

  /** The snapshots of rows read through SNAPSHOT_OF_S (sql.ts), their check sets known first. */
  async snapshotsOf(rows: readonly SqlRow[]): Promise<Snapshot[]> {
    if (rows.some((row) => this.unknownSet(row))) await this.loadSets();
    return rows.map((row) => this.snapshotOfRow(row));
  }

  /** One row's snapshot (snapshotsOf), its checks text rebuilt when first read. */
  async snapshotOf(row: SqlRow): Promise<Snapshot> {
    if (this.unknownSet(row)) await this.loadSets();
    return this.snapshotOfRow(row);
  }

  /** The checks text of a content row (checks, check_set, base, base_checks, base_set), rebuilt. */
  async checksTextOf(row: SqlRow): Promise<string | undefined> {
    if (this.unknownSet(row)) await this.loadSets();
    return this.textOf(row);
  }

  private snapshotOfRow(row: SqlRow): Snapshot {
    let text: string | undefined | null = null;
    const content = { contentId: Number(row.content_id), withChecks: hasChecks(row) };
    const snapshot = withChecks(
      {
        origin: String(row.origin),
        identity: String(row.identity),
        reportId: String(row.report_id),
        project: textOf(row.project),
        score: numberOf(row.score),
        label: textOf(row.label),
        generatedAt: timeOfStored(String(row.generated_at)),
      },
      undefined,
      () => {
        if (text === null) text = this.textOf(row);
        return text;
      },
    );
    Object.defineProperty(snapshot, STORED, { value: content, enumerable: false });
    return snapshot;
  }

  private unknownSet(row: SqlRow): boolean {
    const set = row.base === null || row.base === undefined ? row.check_set : row.base_set;
    return set !== null && set !== undefined && !this.setIds.has(Number(set));
  }

  private async loadSets(): Promise<void> {
    for (const row of (await this.db.run(SQL.checkSets)).rows) {
      this.setIds.set(Number(row.id), String(row.ids).split(' '));
      this.setOfIds.set(String(row.ids), Number(row.id));
    }
  }

  private textOf(row: SqlRow): string | undefined {
    if (row.checks === null || row.checks === undefined) return undefined;
    const checks = String(row.checks);
    if (row.base !== null && row.base !== undefined) return joinChecks(this.idsOf(row.base_set), applyDelta(String(row.base_checks), checks));
    if (row.check_set !== null && row.check_set !== undefined) return joinChecks(this.idsOf(row.check_set), checks);
    return checks;
  }

  private idsOf(set: unknown): string[] {
    const ids = this.setIds.get(Number(set));
    if (!ids) throw new Error(`the history's check set ${String(set)} is missing`);
    return ids;
  }

  /** The id of a check set (its ids, one space apart), added when the store has none. */
  private async setId(ids: string): Promise<number> {
    let id = this.setOfIds.get(ids);
    if (id === undefined) {
      await this.loadSets();
      id = this.setOfIds.get(ids);
    }
    if (id === undefined) {
      id = Number((await this.db.run(SQL.addCheckSet, [ids])).rows[0]?.id);
      this.setIds.set(id, ids.split(' '));
      this.setOfIds.set(ids, id);
    }
    return id;
  }

  /**
   * Writes readings the store does not hold (each a new snapshot; `keepIds`: migration 4's, with the ids given, into
   * its new table) and returns their snapshot ids in order. Each reading's page (its service, report id, URL and
   * project) is found or added; its content is the page's newest when the same, else a delta against the page's last
   * full reading when small, else full.
   */
  async write(snapshots: readonly Snapshot[], keepIds?: readonly number[]): Promise<number[]> {
    if (snapshots.length === 0) return [];
    const pages = await this.pagesOf(snapshots);
    const newest = await this.newestContents([...new Set(pages)]);
    const contentIds: number[] = new Array(snapshots.length);
    // Contents are added a statement at a time; a page met again in the batch first has its pending one written.
    let pending: { at: number; row: SqlValue[]; page: number; full: boolean; states: string | undefined; set: number | undefined; text: string | undefined }[] =
      [];
    const flush = async () => {
      for (let start = 0; start < pending.length; start += ROWS_A_STATEMENT) {
        const chunk = pending.slice(start, start + ROWS_A_STATEMENT);
        const { rows } = await this.db.run(
          SQL.addContents(chunk.length),
          chunk.flatMap((item) => item.row),
        );
        chunk.forEach((item, index) => {
          const id = Number(rows[index]?.id);
          contentIds[item.at] = id;
          const before = newest.get(item.page);
          const snapshot = snapshots[item.at] as Snapshot;
          newest.set(item.page, {
            id,
            score: snapshot.score,
            label: snapshot.label,
            text: () => item.text,
            full: item.full && item.set !== undefined && item.states !== undefined ? { id, set: item.set, states: item.states } : before?.full,
          });
        });
      }
      pending = [];
    };
    const pendingPages = new Set<number>();
    for (const [at, snapshot] of snapshots.entries()) {
      const page = pages[at] as number;
      if (pendingPages.has(page)) {
        await flush();
        pendingPages.clear();
      }
      const text = checksTextOf(snapshot);
      const held = newest.get(page);
      if (held && held.score === snapshot.score && held.label === snapshot.label && held.text() === text) {
        contentIds[at] = held.id;
        continue;
      }
      const score = snapshot.score ?? null;
      const label = snapshot.label ?? null;
      const split = text === undefined ? undefined : splitChecks(text);
      if (text === undefined || split === undefined) {
        pending.push({ at, page, row: [page, null, null, score, label, text ?? null], full: false, states: undefined, set: undefined, text });
      } else {
        const set = await this.setId(split.ids);
        const full = held?.full;
        const delta = full && full.set === set ? deltaOf(full.states, split.states) : undefined;
        if (full && delta !== undefined) pending.push({ at, page, row: [page, full.id, null, score, label, delta], full: false, states: undefined, set, text });
        else pending.push({ at, page, row: [page, null, set, score, label, split.states], full: true, states: split.states, set, text });
      }
      pendingPages.add(page);
    }
    await flush();
    const ids: number[] = [];
    for (let start = 0; start < snapshots.length; start += ROWS_A_STATEMENT) {
      const end = Math.min(start + ROWS_A_STATEMENT, snapshots.length);
      const values: SqlValue[] = [];
      for (let at = start; at < end; at++) {
        if (keepIds) values.push(keepIds[at] as number);
        values.push(pages[at] as number, storedTime((snapshots[at] as Snapshot).generatedAt), contentIds[at] as number);
      }
      if (keepIds) await this.db.run(SQL.keepSnapshots(end - start), values);
      else for (const row of (await this.db.run(SQL.addSnapshots(end - start), values)).rows) ids.push(Number(row.id));
    }
    return keepIds ? [...keepIds] : ids;
  }

  /** Each snapshot's page: the one of its service, report id, URL and project, added when there is none. */
  private async pagesOf(snapshots: readonly Snapshot[]): Promise<number[]> {
    const byKey = new Map<string, PageRow[]>();
    const keys = [...new Set(snapshots.map((snapshot) => `${snapshot.origin}\n${snapshot.reportId}`))];
    for (let start = 0; start < keys.length; start += ROWS_A_STATEMENT) {
      const chunk = keys.slice(start, start + ROWS_A_STATEMENT);
      const { rows } = await this.db.run(
        SQL.pagesOf(chunk.length),
        chunk.flatMap((key) => key.split('\n')),
      );
      for (const row of rows) {
        const key = `${String(row.origin)}\n${String(row.report_id)}`;
        const page = { id: Number(row.id), identity: String(row.identity), project: textOf(row.project) };
        const held = byKey.get(key);
        if (held) held.push(page);
        else byKey.set(key, [page]);
      }
    }
    const pages: number[] = new Array(snapshots.length);
    const missing: { at: number[]; snapshot: Snapshot }[] = [];
    const missingByPlace = new Map<string, { at: number[]; snapshot: Snapshot }>();
    for (const [at, snapshot] of snapshots.entries()) {
      const key = `${snapshot.origin}\n${snapshot.reportId}`;
      const page = byKey.get(key)?.find((held) => held.identity === snapshot.identity && held.project === (snapshot.project ?? undefined));
      if (page) {
        pages[at] = page.id;
        continue;
      }
      const place = `${key}\n${snapshot.identity}\n${snapshot.project ?? '\u0000'}`;
      const added = missingByPlace.get(place);
      if (added) added.at.push(at);
      else {
        const entry = { at: [at], snapshot };
        missingByPlace.set(place, entry);
        missing.push(entry);
      }
    }
    for (let start = 0; start < missing.length; start += ROWS_A_STATEMENT) {
      const chunk = missing.slice(start, start + ROWS_A_STATEMENT);
      const { rows } = await this.db.run(
        SQL.addPages(chunk.length),
        chunk.flatMap(({ snapshot }) => [snapshot.origin, snapshot.reportId, snapshot.identity, snapshot.project ?? null]),
      );
      chunk.forEach((entry, index) => {
        for (const at of entry.at) pages[at] = Number(rows[index]?.id);
      });
    }
    return pages;
  }

  /** The newest content of each page, by page id. */
  private async newestContents(pages: readonly number[]): Promise<Map<number, NewestContent>> {
    const newest = new Map<number, NewestContent>();
    for (let start = 0; start < pages.length; start += ROWS_A_STATEMENT) {
      const chunk = pages.slice(start, start + ROWS_A_STATEMENT);
      const { rows } = await this.db.run(SQL.newestContents(chunk.length), chunk);
      if (rows.some((row) => this.unknownSet(row))) await this.loadSets();
      for (const row of rows) {
        let text: string | undefined | null = null;
        const id = Number(row.content_id);
        const full =
          row.base !== null && row.base !== undefined
            ? { id: Number(row.base), set: Number(row.base_set), states: String(row.base_checks) }
            : row.check_set !== null && row.check_set !== undefined
              ? { id, set: Number(row.check_set), states: String(row.checks) }
              : undefined;
        newest.set(Number(row.page_id), {
          id,
          score: numberOf(row.score),
          label: textOf(row.label),
          text: () => {
            if (text === null) text = this.textOf(row);
            return text;
          },
          full,
        });
      }
    }
    return newest;
  }
}

/** A snapshot's checks as encodeChecks writes them (the text it was read with, or its checks encoded). */
export function checksTextOf(snapshot: Snapshot): string | undefined {
  return snapshot.checksText ?? (snapshot.checks === undefined ? undefined : encodeChecks(snapshot.checks));
}

function hasChecks(row: SqlRow): boolean {
  return row.checks !== null && row.checks !== undefined && (row.base !== null || row.check_set !== null || String(row.checks) !== '');
}

function textOf(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}

function numberOf(value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
