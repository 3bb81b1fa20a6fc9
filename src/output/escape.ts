// Service text made safe for the files a CI reads (JUnit XML, Markdown, the HTML page): invisible and spoofing characters
// shown, markup escaped, JSON made fit to sit inside a <script> element.
import { terminalLines, terminalText } from './terminal-text.js';

/**
 * Beyond what a terminal would act on (terminal-text.ts): what XML 1.0 cannot hold at all, lone surrogates
 * and the non-characters U+FFFE and U+FFFF. Shown as `\uXXXX` too, so nothing is lost or hidden.
 */
const NOT_XML = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufffe\uffff]/g;

/** Controls, escape sequences and bidi overrides shown escaped (terminal-text.ts), then what XML cannot hold. */
export function showInvisible(text: string, options: { keepNewlines: boolean }): string {
  const shown = options.keepNewlines ? terminalLines(text) : terminalText(text);
  return shown.replace(NOT_XML, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Character data of an element: newlines kept. */
export function xmlText(text: string): string {
  return showInvisible(text, { keepNewlines: true }).replace(/[&<>"']/g, (char) => XML_ENTITIES[char]!);
}

/** An attribute value: quotes escaped, and line breaks as references (a parser would fold them to spaces). */
export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/\r/g, '&#13;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

/**
 * Inline Markdown (GitHub's flavour), fit for a table cell: one line; HTML as entities; backslash before the
 * characters that would start code, links, emphasis, strike-through or a new cell.
 */
export function markdownText(text: string): string {
  return showInvisible(text, { keepNewlines: false })
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~!#]/g, (char) => `\\${char}`);
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text for an element or a double-quoted attribute: markup characters as entities, and controls and bidi overrides
 * shown as `\u202e` (a URL that would read backwards shows what it holds).
 */
export function escapeHtml(text: string): string {
  return showInvisible(text, { keepNewlines: true }).replace(/[&<>"']/g, (char) => HTML_ENTITIES[char]!);
}

/**
 * JSON for a `<script type="application/json">`: `<`, `>` and `&` as \u escapes (no `</script>` or `<!--` can end
 * or change the element), and U+2028/U+2029, which older script parsers read as line ends.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
