// Opening a history where it lives: the driver chosen by the location (SQLite's or PostgreSQL's, each loaded only
// then) and the one store over it, its schema migrated.
import { historyMissing, noHistoryYet, type HistoryLocation } from './location.js';
import { SqlHistoryStore } from './sql-store.js';
import type { HistoryStore } from './types.js';

export interface OpenOptions {
  /**
   * Only to read it (history runs, show, trend, diff, export; baseline lookups): a SQLite file is opened read-only and
   * left as it is (a history on a read-only mount can be read).
   */
  readOnly?: boolean;
  /** Where a driver's own warnings go, said in rsapi's words as one line (never printed by the library itself). */
  notice?: (line: string) => void;
  /** Only a history that is there: one not made yet is exit 4 (noHistoryYet), and no file is made. */
  mustExist?: boolean;
}

export async function openHistory(location: HistoryLocation, options: OpenOptions = {}): Promise<HistoryStore> {
  if (options.mustExist && historyMissing(location)) throw noHistoryYet(location);
  if (location.kind === 'postgres') {
    const { openPostgres } = await import('./postgres.js');
    return SqlHistoryStore.open(await openPostgres(location.url, location.shown, { notice: options.notice }), location.shown, { notice: options.notice });
  }
  const { openSqlite } = await import('./sqlite.js');
  if (options.readOnly) {
    const connection = await openSqlite(location.path, { readOnly: true });
    if (!(await SqlHistoryStore.isOlderSchema(connection))) return SqlHistoryStore.open(connection, location.shown, { readOnly: true });
    // A history of an older rsapi is brought up to date once (its reader's queries need the new columns), then read.
    await connection.close();
    await (await SqlHistoryStore.open(await openSqlite(location.path), location.shown, { notice: options.notice })).close();
    return SqlHistoryStore.open(await openSqlite(location.path, { readOnly: true }), location.shown, { readOnly: true });
  }
  return SqlHistoryStore.open(await openSqlite(location.path), location.shown, { notice: options.notice });
}
