// SQLite's driver of the history (src/history/sqlite.ts): every statement the store runs on SQLite is planned on the
// history's own indexes. Plans do not depend on how much a file holds (no statistics are gathered), so an empty
// history shows the plan a year of readings gets.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyLocation } from '../../src/history/location.js';
import { openHistory } from '../../src/history/open.js';
import { SQL, SQLITE, type SqlConnection } from '../../src/history/sql.js';
import { openSqlite } from '../../src/history/sqlite.js';
import { scratchMaker } from '../helpers/scratch.js';

const scratch = scratchMaker('rsapi-sqlite-');

/** Each statement of SQL and SQLITE that reads or writes rows, as the store writes it (for 3 keys, a dialect, flags). */
function statements(): [string, string[]][] {
  const found: [string, string[]][] = [];
  for (const [group, entries] of Object.entries({ SQL, SQLITE })) {
    for (const [name, value] of Object.entries(entries)) {
      const texts = typeof value === 'function' ? [3, SQLITE, { before: true, keeping: true }, true].map((arg) => tryText(value, arg)) : [value];
      const written = texts.filter((text): text is string => typeof text === 'string' && /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i.test(text));
      if (written.length > 0) found.push([`${group}.${name}`, written]);
    }
  }
  return found;
}

function tryText(make: (arg: never) => unknown, arg: unknown): unknown {
  try {
    return make(arg as never);
  } catch {
    return undefined;
  }
}

/** The plan of the first of `texts` SQLite takes (a statement made with the wrong kind of argument is not SQL). */
async function planOf(connection: SqlConnection, texts: readonly string[]): Promise<string[] | undefined> {
  for (const text of texts) {
    try {
      const plan: string[] = [];
      for await (const row of connection.each(`EXPLAIN QUERY PLAN ${text}`)) plan.push(String(row.detail));
      return plan;
    } catch {}
  }
  return undefined;
}

describe('the SQLite history', () => {
  it('plans every statement on its own indexes, never a temporary one built per query (a re-read asked 15 ms a 100 keys at 50,000 pages)', async () => {
    const path = join(scratch(), 'history.db');
    await (await openHistory(historyLocation(path))).close();
    const connection = await openSqlite(path);
    try {
      const all = statements();
      const automatic: string[] = [];
      const planned: string[] = [];
      for (const [name, texts] of all) {
        const plan = await planOf(connection, texts);
        if (plan === undefined) continue;
        planned.push(name);
        if (plan.some((step) => /AUTOMATIC/.test(step))) automatic.push(`${name}: ${plan.join(' | ')}`);
      }
      expect(planned).toContain('SQL.storedSnapshots');
      expect(planned.length).toBeGreaterThan(25);
      expect(automatic).toEqual([]);
    } finally {
      await connection.close();
    }
  });

  it('finds a re-read page by its own indexes: report, then reading (a recording re-read, and an import)', async () => {
    const path = join(scratch(), 'history.db');
    await (await openHistory(historyLocation(path))).close();
    const connection = await openSqlite(path);
    try {
      for (const sql of [SQL.heldReadings(100), SQL.storedSnapshots(100)]) {
        const plan: string[] = [];
        for await (const row of connection.each(`EXPLAIN QUERY PLAN ${sql}`)) plan.push(String(row.detail));
        expect(plan.join('\n')).toMatch(
          /history_pages_report \(origin=\? AND report_id=\?\)[\s\S]*history_snapshots_reading \(page_id=\? AND generated_at=\?\)/,
        );
      }
    } finally {
      await connection.close();
    }
  });
});
