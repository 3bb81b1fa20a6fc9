// The one place errors become output and exit codes: a line on stderr, a hint, and the contract's code.
import { ExitCode, RsapiError, ValidationError, type ExitCodeValue } from '../api/errors.js';
import { forStderr, oneLineForStderr } from './stderr.js';
import type { Sink } from '../output/index.js';

export interface ErrorReportOptions {
  /** Print the stack trace too (--verbose, RSAPI_DEBUG=1). */
  debug: boolean;
}

const MAX_FIELD_LINES = 50;

/** Prints the error and returns the exit code for it. */
export function reportError(error: unknown, stderr: Sink, options: ErrorReportOptions): ExitCodeValue {
  const lines: string[] = [];
  let code: ExitCodeValue = ExitCode.unexpected;
  if (error instanceof RsapiError) {
    code = error.exitCode;
    lines.push(`rsapi: ${oneLineForStderr(error.message)}`);
    if (error instanceof ValidationError) {
      // One line a field error, as many as a person reads; a service sending thousands gets a count.
      const fieldLines = Object.entries(error.fields).flatMap(([field, messages]) =>
        messages.map((message) => `  ${oneLineForStderr(field)}: ${oneLineForStderr(message)}`),
      );
      lines.push(...fieldLines.slice(0, MAX_FIELD_LINES));
      if (fieldLines.length > MAX_FIELD_LINES) lines.push(`  … and ${fieldLines.length - MAX_FIELD_LINES} more field errors`);
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
