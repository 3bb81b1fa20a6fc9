// The history's own failures: a store that cannot be opened, read or written, and a run that is not there. Exit codes
// for them are chosen in src/cli/runtime/exit-codes.ts alone.
import { RsapiError } from '../errors.js';

/** Why a history could not be used: the command's own output stands, the history part failed (exit 11). */
export type HistoryProblem =
  | 'not-history'
  | 'damaged'
  | 'unwritable'
  | 'disk-full'
  | 'unreachable'
  | 'refused'
  | 'bad-parameter'
  | 'malformed'
  | 'newer-schema'
  | 'failed';

/** The history could not be opened, read or written. */
export class HistoryError extends RsapiError {
  constructor(
    message: string,
    readonly problem: HistoryProblem,
    options?: { cause?: unknown; hint?: string },
  ) {
    super(message, options);
  }
}

/** A run id that the history does not hold, or too few runs to compare: exit 4, as a record not found. */
export class HistoryNotFoundError extends RsapiError {}

/** A merge of run parts that misses a share: exit 12, each missing share named (`shard 2/3 missing`). */
export class IncompleteRunError extends RsapiError {}

/** A history whose schema is newer than this rsapi knows: read or written by it, it could be damaged. */
export function newerSchemaError(where: string, version: number, known: number = version - 1): HistoryError {
  return new HistoryError(`${where} was written by a newer rsapi (schema ${version}; this one knows up to ${known}); left untouched`, 'newer-schema', {
    hint: 'update rsapi, or give another history with --history',
  });
}
