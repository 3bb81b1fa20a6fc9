#!/usr/bin/env node
// A throwaway PostgreSQL 15 (Debian's packages) for the history tests: initdb into a temp directory (as the postgres
// user when run as root), pg_ctl on a free loopback port with password auth, a database for the tests; stopped and
// removed at the end.
//
//   node scripts/postgres.mjs start     prints `RSAPI_TEST_POSTGRES_URL=...` and `RSAPI_TEST_POSTGRES_DIR=...`
//   node scripts/postgres.mjs stop DIR  stops that server and removes its directory
//
// Or from JavaScript: `const pg = await startPostgres(); ... await pg.stop();`
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const POSTGRES_BIN = process.env.RSAPI_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export function postgresInstalled() {
  return existsSync(join(POSTGRES_BIN, 'initdb')) && existsSync(join(POSTGRES_BIN, 'pg_ctl'));
}

/** Runs a PostgreSQL binary as the postgres user when we are root (initdb refuses root), else as ourselves. */
function pgRun(tool, args, options = {}) {
  const path = join(POSTGRES_BIN, tool);
  const asRoot = process.getuid?.() === 0;
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
  return execFileSync(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...options });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts a server; resolves with its URL (user rsapi, a random password, database rsapi_test) and stop(). */
export async function startPostgres() {
  if (!postgresInstalled()) throw new Error(`PostgreSQL 15 is not installed (${POSTGRES_BIN}); apt-get install postgresql-15`);
  const dir = mkdtempSync(join(tmpdir(), 'rsapi-pg-'));
  const password = randomBytes(12).toString('hex');
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  const data = join(dir, 'data');
  pgRun('initdb', ['-D', data, '-U', 'rsapi', `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--no-sync', '-E', 'UTF8', '--locale=C']);
  rmSync(pwfile);
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=50`;
  pgRun('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']);
  const env = { ...process.env, PGPASSWORD: password };
  pgRun('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'rsapi', 'rsapi_test'], { env });
  const url = `postgres://rsapi:${password}@127.0.0.1:${port}/rsapi_test`;
  return { url, dir, stop: () => stopPostgres(dir) };
}

export function stopPostgres(dir) {
  try {
    pgRun('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
  } catch {
    // already stopped
  }
  rmSync(dir, { recursive: true, force: true });
}

function postgresUser() {
  const line = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).trim().split(':');
  return { uid: Number(line[2]), gid: Number(line[3]) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [command, dir] = process.argv.slice(2);
  if (command === 'start') {
    const pg = await startPostgres();
    process.stdout.write(`RSAPI_TEST_POSTGRES_URL=${pg.url}\nRSAPI_TEST_POSTGRES_DIR=${pg.dir}\n`);
  } else if (command === 'stop' && dir) {
    stopPostgres(dir);
  } else {
    process.stderr.write('usage: node scripts/postgres.mjs start | stop DIR\n');
    process.exit(2);
  }
}
