// Service text made safe for the files a CI reads (JUnit XML, Markdown): invisible and spoofing characters shown, markup escaped.

/**
 * C0 and C1 controls (tab and newline kept where the caller allows), bidirectional overrides and isolates, lone
 * surrogates and XML's non-characters: none belongs in a URL, a project name or a message a person reads in a
 * CI's web view, and XML 1.0 forbids most of them. Each is shown as `\u{…}`, so nothing is lost or hidden.
 */
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function showInvisible(text: string, options: { keepNewlines: boolean }): string {
  const shown = text.replace(INVISIBLE, (char) => `\\u{${char.charCodeAt(0).toString(16).padStart(4, '0')}}`);
  return options.keepNewlines ? shown : shown.replace(/\r\n|[\r\n\t]/g, ' ');
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
