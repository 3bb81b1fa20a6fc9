// Opening a history where it lives: the driver chosen by the location (SQLite's or PostgreSQL's, each loaded only
// then) and the one store over it, its schema migrated.
import type { HistoryLocation } from './location.js';
import { SqlHistoryStore } from './sql-store.js';
import type { HistoryStore } from './types.js';

export async function openHistory(location: HistoryLocation): Promise<HistoryStore> {
  if (location.kind === 'postgres') {
    const { openPostgres } = await import('./postgres.js');
    return SqlHistoryStore.open(await openPostgres(location.url, location.shown), location.shown);
  }
  const { openSqlite } = await import('./sqlite.js');
  return SqlHistoryStore.open(await openSqlite(location.path), location.shown);
}
