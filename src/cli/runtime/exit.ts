// Printing the error that ends a run: its line on stderr, field lines and hint, and its exit code (from exit-codes.ts).
import { RsapiError } from '../../api/errors.js';
import { detailLines, exitCodeOf, type ExitCodeValue } from './exit-codes.js';
import { forStderr, oneLineForStderr } from '../terminal/stderr.js';
import type { Sink } from '../../output/index.js';

export interface ErrorReportOptions {
  /** RSAPI_DEBUG=1: the stack trace of any error. */
  debug: boolean;
  /**
   * --verbose: the stack trace of a bug only (an error rsapi did not raise on purpose). A 503 or a refused key is
   * the service's answer, already told by the trace of requests and this line; a stack of ours would add nothing.
   */
  verbose?: boolean;
}

const MAX_FIELD_LINES = 50;

/** Prints the error and returns the exit code for it. */
export function reportError(error: unknown, stderr: Sink, options: ErrorReportOptions): ExitCodeValue {
  const lines: string[] = [];
  if (error instanceof RsapiError) {
    lines.push(`rsapi: ${oneLineForStderr(error.message)}`);
    for (const line of detailLines(error, MAX_FIELD_LINES)) lines.push(oneLineForStderr(line));
  } else {
    const message = error instanceof Error ? error.message : String(error);
    lines.push(`rsapi: unexpected error: ${oneLineForStderr(message)}`);
    if (!options.debug && !options.verbose) lines.push('hint: run again with --verbose (or RSAPI_DEBUG=1) for details');
  }
  const trace = options.debug || (options.verbose === true && !(error instanceof RsapiError));
  if (trace && error instanceof Error && error.stack) lines.push(error.stack);
  // The stack is ours, several lines: forStderr keeps its line breaks and escapes anything else.
  stderr.write(`${forStderr(lines.join('\n'))}\n`);
  return exitCodeOf(error);
}
