// Where a history lives: a SQLite file (a path; by default under $XDG_DATA_HOME) or a PostgreSQL URL, read from what the
// user gave, with the URL's password as a secret and the form that may be shown.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { redactedUrl, urlPasswords } from '../api/http/connection-url.js';
import { HistoryError, HistoryNotFoundError } from './errors.js';

export type HistoryLocation = { kind: 'sqlite'; path: string; shown: string } | { kind: 'postgres'; url: string; shown: string; passwords: string[] };

/** `$XDG_DATA_HOME/rsapi/history.db`, else `~/.local/share/rsapi/history.db`. */
export function defaultHistoryPath(env: NodeJS.ProcessEnv): string {
  const data = env.XDG_DATA_HOME && env.XDG_DATA_HOME.trim() !== '' ? env.XDG_DATA_HOME : join(env.HOME ?? homedir(), '.local', 'share');
  return join(data, 'rsapi', 'history.db');
}

/** Whether a value names a PostgreSQL database rather than a file. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value.trim());
}

/**
 * The location a value names. A URL with another scheme (`mysql://`) or one that does not parse is malformed: said as
 * a history problem, without repeating the value (it may hold a password). A path's leading `~` is `home`, as a shell
 * would have it (a stored `~/history.db` made a folder named `~` wherever rsapi ran).
 */
export function historyLocation(value: string, home: string = homedir()): HistoryLocation {
  if (isPostgresUrl(value)) {
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      throw new HistoryError(`the history URL ${redactedUrl(value)} is malformed`, 'malformed', {
        hint: 'write it as postgres://user:password@host:5432/database',
      });
    }
    if (url.hostname === '' && !url.searchParams.has('host'))
      throw new HistoryError(`the history URL ${redactedUrl(value)} names no host`, 'malformed', {
        hint: 'write it as postgres://user:password@host:5432/database',
      });
    return { kind: 'postgres', url: value.trim(), shown: redactedUrl(value), passwords: urlPasswords(value) };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim()))
    throw new HistoryError(`the history ${redactedUrl(value)} is neither a file path nor a postgres:// URL`, 'malformed', {
      hint: 'give a path for SQLite, or postgres://user:password@host/database',
    });
  const path = resolve(value.replace(/^~(?=$|\/)/, home));
  return { kind: 'sqlite', path, shown: path };
}

// The redaction lives with the URL parsing (src/api/http/connection-url.ts): the config layer shows a stored URL too.
export { urlPasswords };

/**
 * Whether no history is there yet: a SQLite file not made. A PostgreSQL database is never known to be missing before
 * it is asked. The one place that knows a history can be a file that is not there.
 */
export function historyMissing(location: HistoryLocation): boolean {
  return location.kind === 'sqlite' && !existsSync(location.path);
}

/** A history read before anything was recorded in it (exit 4). */
export function noHistoryYet(location: HistoryLocation): HistoryNotFoundError {
  return new HistoryNotFoundError(`no history at ${location.shown} yet`, {
    hint: 'record one with --record (`rsapi reports list --all --record`), or point to one with --history or RSAPI_HISTORY',
  });
}
