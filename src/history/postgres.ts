// The PostgreSQL driver of the history: the `pg` client, loaded only when a postgres:// URL is given, one connection
// a run; a server down, a refused password or a missing database said as what it is (the URL's password never shown).
import type { Client } from 'pg';
import { HistoryError } from './errors.js';
import { POSTGRES, type SqlConnection, type SqlRow, type SqlValue } from './sql.js';

const CONNECT_TIMEOUT_MS = 5_000;
/**
 * How long one statement may take on the server (statement_timeout): a history that does not answer is given up
 * rather than holding the run. Migrations lift it for their own transaction (POSTGRES.unlimitedStatements).
 */
export const STATEMENT_TIMEOUT_MS = 10_000;

export async function openPostgres(
  url: string,
  shown: string,
  options: { notice?: (line: string) => void; statementTimeoutMs?: number } = {},
): Promise<SqlConnection> {
  const pg = (await import('pg')).default;
  const timeout = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  const client = quietly(
    () =>
      new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        // A connection a firewall or NAT dropped in silence is found out, not waited on.
        keepAlive: true,
        statement_timeout: timeout,
      }),
    options.notice,
  );
  // A server that goes away between statements emits 'error' on the client: the next statement fails and says so.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw postgresProblem(shown, error);
  }
  return new PostgresConnection(client, shown);
}

/**
 * `make()`, with the warnings the pg library prints through process.emitWarning meanwhile (pg-connection-string's
 * multi-line SECURITY WARNING for `?sslmode=require`) kept from the terminal: the one said, in rsapi's words, to
 * `notice`. Any other warning passes, and emitWarning is given back at once.
 */
function quietly<T>(make: () => T, notice: ((line: string) => void) | undefined): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const message = typeof warning === 'string' ? warning : warning.message;
    if (/SSL modes? .*(prefer|require|verify-ca)/i.test(message)) {
      notice?.(
        "rsapi: note: the history URL's sslmode=require (or prefer, verify-ca) is taken as verify-full by the pg library: the server's certificate must be valid for its host name",
      );
      return;
    }
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return make();
  } finally {
    process.emitWarning = emitWarning;
  }
}

function postgresProblem(shown: string, error: unknown): HistoryError {
  if (error instanceof HistoryError) return error;
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === '28P01' || code === '28000')
    return new HistoryError(`the history database ${shown} refused the login (${message})`, 'refused', {
      cause: error,
      hint: 'check the user and password in the history URL',
    });
  // Invalid parameter value (a `?options=-c statement_timeout=abc` in the URL): the server was reached, and said no.
  if (code === '22023')
    return new HistoryError(`the history database ${shown} refused a connection parameter (${message})`, 'bad-parameter', {
      cause: error,
      hint: 'check the parameters in the history URL (after ?)',
    });
  if (code === '57014')
    return new HistoryError(`the history database ${shown} did not answer a statement within its time limit (${message})`, 'unreachable', { cause: error });
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ETIMEDOUT' || code === 'ECONNRESET' || /timeout/i.test(message))
    return new HistoryError(`the history database ${shown} cannot be reached (${code ?? message})`, 'unreachable', { cause: error });
  if (code === '3D000') return new HistoryError(`the history database ${shown} does not exist (${message})`, 'unreachable', { cause: error });
  return new HistoryError(`the history database ${shown}: ${message}`, 'failed', { cause: error });
}

class PostgresConnection implements SqlConnection {
  readonly dialect = POSTGRES;

  /** The query before: one at a time on the connection (pg's own queue for a second query is deprecated, gone in pg 9). */
  private previous: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: Client,
    private readonly shown: string,
  ) {}

  async run(sql: string, params: readonly SqlValue[] = []): Promise<{ rows: SqlRow[]; changes: number }> {
    const query = this.previous.then(() => this.client.query(POSTGRES.placeholders(sql), params as SqlValue[]));
    this.previous = query.catch(() => undefined);
    try {
      const result = await query;
      return { rows: result.rows as SqlRow[], changes: result.rowCount ?? 0 };
    } catch (error) {
      throw postgresProblem(this.shown, error);
    }
  }

  /** pg without a cursor reads a query's rows whole; they are handed out one at a time all the same. */
  async *each(sql: string, params: readonly SqlValue[] = []): AsyncIterable<SqlRow> {
    yield* (await this.run(sql, params)).rows;
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    await this.run(POSTGRES.begin);
    try {
      const result = await work();
      await this.run('COMMIT');
      return result;
    } catch (error) {
      await this.run('ROLLBACK').catch(() => {});
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }
}
