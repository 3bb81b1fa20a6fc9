// How many terminal columns text takes (wide East Asian characters and emoji count two), and cutting text to a width.

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const EMOJI_PRESENTATION = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F/u;
const REGIONAL_INDICATOR = /\p{Regional_Indicator}/u;
const ZERO_WIDTH = /^(?:\p{Mark}|\p{Default_Ignorable_Code_Point}|\p{Control})+$/u;

/** Wide (W) and fullwidth (F) ranges of Unicode's East Asian Width, the blocks a URL or project name may hold. */
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

let segmenter: Intl.Segmenter | undefined;

function graphemes(text: string): Iterable<string> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const segments = segmenter.segment(text);
  return {
    *[Symbol.iterator]() {
      for (const { segment } of segments) yield segment;
    },
  };
}

function isWideCodePoint(codePoint: number): boolean {
  for (const [from, to] of WIDE_RANGES) {
    if (codePoint < from) return false;
    if (codePoint <= to) return true;
  }
  return false;
}

/** Columns taken by one grapheme cluster: 0, 1 or 2. */
function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  if (EMOJI_PRESENTATION.test(grapheme) || REGIONAL_INDICATOR.test(grapheme)) return 2;
  return isWideCodePoint(grapheme.codePointAt(0) ?? 0) ? 2 : 1;
}

/** The width of text on a terminal; text is expected to hold no escape sequences (cells are made terminal-safe first). */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const grapheme of graphemes(text)) width += graphemeWidth(grapheme);
  return width;
}

/** Text cut to at most `width` columns, ending in `…` when something was cut; never splits a grapheme. */
export function truncateToWidth(text: string, width: number): string {
  return fitToWidth(text, width).text;
}

/** Text cut to at most `width` columns as truncateToWidth does, and the columns it then takes. */
export function fitToWidth(text: string, width: number): { text: string; width: number } {
  const full = displayWidth(text);
  if (full <= width) return { text, width: full };
  if (width <= 0) return { text: '', width: 0 };
  if (width === 1) return { text: '…', width: 1 };
  if (PRINTABLE_ASCII.test(text)) return { text: `${text.slice(0, width - 1)}…`, width };
  let kept = '';
  let used = 0;
  for (const grapheme of graphemes(text)) {
    const next = graphemeWidth(grapheme);
    if (used + next > width - 1) break;
    kept += grapheme;
    used += next;
  }
  return { text: `${kept}…`, width: used + 1 };
}

/**
 * Text cut to at most `width` columns in the middle: up to `head` columns of its start, `…`, and as much of its end as
 * fits (`example.com/bl…/pricing-2`). For values told apart by their end as much as by their start (URLs).
 */
export function fitMiddle(text: string, width: number, head: number): { text: string; width: number } {
  const full = displayWidth(text);
  if (full <= width) return { text, width: full };
  if (width <= 2) return fitToWidth(text, width);
  const headWidth = Math.max(1, Math.min(head, width - 2));
  const tailWidth = width - 1 - headWidth;
  if (PRINTABLE_ASCII.test(text)) return { text: `${text.slice(0, headWidth)}…${text.slice(text.length - tailWidth)}`, width };
  const parts = [...graphemes(text)];
  let start = '';
  let used = 0;
  for (const grapheme of parts) {
    if (used + graphemeWidth(grapheme) > headWidth) break;
    start += grapheme;
    used += graphemeWidth(grapheme);
  }
  let end = '';
  let usedEnd = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const grapheme = parts[i] ?? '';
    if (usedEnd + graphemeWidth(grapheme) > width - 1 - used) break;
    end = grapheme + end;
    usedEnd += graphemeWidth(grapheme);
  }
  return { text: `${start}…${end}`, width: used + 1 + usedEnd };
}

/**
 * Text broken into lines of at most `width` columns, each after the last space, `/`, `?`, `&` or `-` in its second
 * half when there is one (a URL breaks between its parts), else at the width. Never splits a grapheme.
 */
export function wrapToWidth(text: string, width: number): string[] {
  if (displayWidth(text) <= width || width < 2) return [text];
  const lines: string[] = [];
  let line: string[] = [];
  let used = 0;
  for (const grapheme of graphemes(text)) {
    const next = graphemeWidth(grapheme);
    if (used + next > width && line.length > 0) {
      const breakAt = lastBreak(line);
      const kept = breakAt >= Math.ceil(line.length / 2) ? line.slice(0, breakAt + 1) : line;
      lines.push(kept.join('').trimEnd());
      line = line.slice(kept.length);
      used = line.reduce((sum, part) => sum + graphemeWidth(part), 0);
    }
    line.push(grapheme);
    used += next;
  }
  if (line.length > 0) lines.push(line.join(''));
  return lines;
}

function lastBreak(line: readonly string[]): number {
  for (let i = line.length - 1; i >= 0; i--) if (/^[ /?&-]$/.test(line[i] ?? '')) return i;
  return -1;
}
