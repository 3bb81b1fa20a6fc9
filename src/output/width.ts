// How many terminal columns text takes (wide East Asian characters and emoji count two), and cutting text to a width.

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const EMOJI_PRESENTATION = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F/u;
const REGIONAL_INDICATOR = /\p{Regional_Indicator}/u;
const ZERO_WIDTH = /^(?:\p{Mark}|\p{Default_Ignorable_Code_Point}|\p{Control})+$/u;

/** Wide (W) and fullwidth (F) ranges of Unicode's East Asian Width, the blocks a URL or project name may hold. */
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf],
  [0xa960, 0xa97f], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6f], [0xff00, 0xff60],
  [0xffe0, 0xffe6], [0x16fe0, 0x16fe4], [0x17000, 0x18cff], [0x1b000, 0x1b2ff], [0x1f200, 0x1f2ff], [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

let segmenter: Intl.Segmenter | undefined;

function graphemes(text: string): Iterable<string> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const segments = segmenter.segment(text);
  return { *[Symbol.iterator]() { for (const { segment } of segments) yield segment; } };
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
