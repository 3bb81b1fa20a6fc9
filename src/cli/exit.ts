// The one place errors become output and exit codes: a line on stderr, a hint, and the contract's code.
import { ExitCode, RsapiError, ValidationError, type ExitCodeValue } from '../api/errors.js';
import { forStderr, oneLineForStderr } from './stderr.js';
import type { Sink } from '../output/index.js';

export interface ErrorReportOptions {
  /** Print the stack trace too (--verbose, RSAPI_DEBUG=1). */
  debug: boolean;
}

/** Prints the error and returns the exit code for it. */
export function reportError(error: unknown, stderr: Sink, options: ErrorReportOptions): ExitCodeValue {
  const lines: string[] = [];
  let code: ExitCodeValue = ExitCode.unexpected;
  if (error instanceof RsapiError) {
    code = error.exitCode;
    lines.push(`rsapi: ${oneLineForStderr(error.message)}`);
    if (error instanceof ValidationError) {
      for (const [field, messages] of Object.entries(error.fields)) {
        for (const message of messages) lines.push(`  ${oneLineForStderr(field)}: ${oneLineForStderr(message)}`);
      }
    }
    if (error.hint) lines.push(`hint: ${oneLineForStderr(error.hint)}`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    lines.push(`rsapi: unexpected error: ${oneLineForStderr(message)}`);
    if (!options.debug) lines.push('hint: run again with --verbose (or RSAPI_DEBUG=1) for details');
  }
  if (options.debug && error instanceof Error && error.stack) lines.push(error.stack);
  // The stack is ours, several lines: forStderr keeps its line breaks and escapes anything else.
  stderr.write(`${forStderr(lines.join('\n'))}\n`);
  return code;
}
