// The errors every layer may raise (the HTTP client, the settings, the mock, the CLI): the lowest module of all, so
// that no layer imports upward for them. Exit codes and hints for them are chosen in src/cli/runtime/exit-codes.ts alone.

/** Base class of every error rsapi raises on purpose (the class says what kind of failure it is). */
export class RsapiError extends Error {
  /** What to do about it, when the place that raised it knows better than its class (no flag or command names). */
  hint?: string;

  constructor(message: string, options?: { cause?: unknown; hint?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options?.hint;
  }
}

/** A value the user gave (flag, argument, setting, port) that is refused before any request: exit 2. `lines` name each bad item, one a line below it. */
export class UsageError extends RsapiError {
  readonly lines: readonly string[];

  constructor(message: string, options?: { cause?: unknown; hint?: string; lines?: readonly string[] }) {
    super(message, options);
    this.lines = options?.lines ?? [];
  }
}

/**
 * A flag given an empty value (`--project "$PROJECT"` with PROJECT unset): a mistake, never a request for "any",
 * "none" or the next source. The one message for every flag, so a CI log names the variable to look at.
 */
export function emptyFlagError(flag: string): UsageError {
  return new UsageError(`${flag} is empty`, { hint: 'is the shell variable you meant to pass set?' });
}
