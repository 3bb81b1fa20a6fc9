// A PostgreSQL database for a test file: a fresh database on the server CI started (RSAPI_TEST_POSTGRES_URL, from
// scripts/postgres.mjs in .ci/run), else a server of the file's own started the same way. Never skipped under CI.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { postgresInstalled, startPostgres } from '../../scripts/postgres.mjs';

export interface TestDatabase {
  url: string;
  /** Drops the database (or stops the server this file started). */
  close(): Promise<void>;
}

/** Why PostgreSQL tests cannot run here, or undefined when they can. Under CI they never skip: the caller fails. */
export function postgresUnavailable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.RSAPI_TEST_POSTGRES_URL || postgresInstalled()) return undefined;
  return 'no RSAPI_TEST_POSTGRES_URL and no PostgreSQL 15 in /usr/lib/postgresql/15/bin';
}

/** A database of its own (on the shared server, or on a server started for it). */
export async function startTestDatabase(): Promise<TestDatabase> {
  const shared = process.env.RSAPI_TEST_POSTGRES_URL;
  if (!shared) {
    const server = await startPostgres();
    return { url: server.url, close: async () => server.stop() };
  }
  const name = `rsapi_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: shared });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async close() {
      const client = new pg.Client({ connectionString: shared });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A database for the test file it is called in (at its top level): made before its tests, dropped after them.
 * `missing` says why there is none here (its tests then skip with it); under CI there must be one, and the file fails.
 */
export function postgresPerFile(): { readonly missing: string | undefined; url(): string } {
  const missing = postgresUnavailable();
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    if (missing && process.env.CI) throw new Error(`PostgreSQL tests cannot be skipped under CI: ${missing}`);
    if (!missing) database = await startTestDatabase();
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });
  return {
    missing,
    url: () => {
      if (!database) throw new Error(`no PostgreSQL database: ${missing ?? 'not started yet'}`);
      return database.url;
    },
  };
}

/** Empties a test database (its public schema dropped and made again): a history made afresh in it, its tables gone. */
export async function emptyDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  } finally {
    await client.end();
  }
}
