// What may reach stderr: secrets redacted first, then the terminal-safety rule (service text never drives the terminal).
import { terminalLines, terminalText } from '../output/terminal-text.js';
import { redact } from './secrets.js';

/** One or more lines of ours for stderr: the line breaks between them stay, every other control is escaped. */
export function forStderr(text: string): string {
  return terminalLines(redact(text));
}

/** Text that must stay one line on stderr (an error message, a field error): every control escaped, line breaks too. */
export function oneLineForStderr(text: string): string {
  return terminalText(redact(text));
}
