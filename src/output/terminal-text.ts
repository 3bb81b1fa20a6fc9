// The one terminal-safety rule: text from a service is shown with its control characters, escape sequences and bidi
// overrides escaped, never raw, never dropped.

/**
 * What a terminal would act on rather than show: C0 controls (ESC, BEL, CR, LF...), DEL, C1 controls
 * (CSI, OSC as single bytes), and the bidirectional embeddings, overrides, isolates and marks that
 * reorder what is shown (U+202E makes `exe.txt` read `txt.exe`).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The same, for a test: does this text hold anything a terminal would act on? */
const HAS_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One character, escaped visibly: `\n`, `\x1b`, `\u202e`. */
function visibleEscape(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Service text for a terminal (table cells, error messages, hints, progress lines, ids on a
 * terminal): every unsafe character shown as an escape, so a value is always one line and can
 * neither drive the terminal (clear it, set its title, write the clipboard) nor reorder what is shown.
 */
export function terminalText(text: string): string {
  return HAS_UNSAFE.test(text) ? text.replace(UNSAFE, visibleEscape) : text;
}

/** Like terminalText, line by line: the line breaks between lines are kept, any other unsafe character escaped. */
export function terminalLines(text: string): string {
  return text.split('\n').map(terminalText).join('\n');
}

/**
 * JSON text (json, ndjson, `rsapi api`) for a terminal: what JSON.stringify leaves raw inside strings
 * (DEL, C1, bidi) as `\uXXXX`, which JSON reads back as the same character: the document stays valid
 * and equal. Raw line breaks in JSON.stringify's output are only its indentation; they stay.
 */
export function terminalJson(json: string): string {
  if (!HAS_UNSAFE.test(json)) return json;
  return json.replace(UNSAFE, (char) => (char === '\n' ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** A line break inside one identifier (-q into a pipe) would make it two: only those are escaped there. */
export function singleLine(text: string): string {
  return /[\r\n]/.test(text) ? text.replace(/[\r\n]/g, visibleEscape) : text;
}

/** Whether a terminal would act on some character of this text (for tests and warnings). */
export function hasTerminalControls(text: string): boolean {
  return HAS_UNSAFE.test(text);
}
