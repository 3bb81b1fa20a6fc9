// What may reach stderr: the terminal-safety rule (service text never drives the terminal). Secrets are redacted by the
// invocation's stderr itself (invocation.ts), whatever writes to it.
import { terminalLines, terminalText } from '../../output/terminal-text.js';

/** One or more lines of ours for stderr: the line breaks between them stay, every other control is escaped. */
export function forStderr(text: string): string {
  return terminalLines(text);
}

/** Text that must stay one line on stderr (an error message, a field error): every control escaped, line breaks too. */
export function oneLineForStderr(text: string): string {
  return terminalText(text);
}
