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

/**
 * Code units segmented at a time. Walking the segments of one long string takes time growing with the square of its
 * length in V8 (Node 20: 10,000 characters 60 ms, 40,000 850 ms; in pieces of 256, 40,000 take 30 ms), so long text
 * is segmented piece by piece, each piece starting where the last cluster of the one before began (that cluster may
 * go on past its piece). A cluster longer than a piece (a letter under a thousand combining marks) widens the piece.
 */
const PIECE = 256;

function* graphemes(text: string): Generator<string> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let from = 0;
  let size = PIECE;
  while (text.length - from > size) {
    // Cut between code points: every boundary but the last cluster's then sees the code point after it, all it needs.
    const end = isHighSurrogate(text.charCodeAt(from + size - 1)) ? from + size - 1 : from + size;
    const piece = text.slice(from, end);
    let lastStart = 0;
    for (const { segment, index } of segmenter.segment(piece)) {
      if (index + segment.length === piece.length) {
        lastStart = index;
        break;
      }
      yield segment;
    }
    if (lastStart === 0) size *= 2;
    else [from, size] = [from + lastStart, PIECE];
  }
  for (const { segment } of segmenter.segment(text.slice(from))) yield segment;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
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

/**
 * How many of `parts` (grapheme clusters), taken one by one from index `from` (with `step` -1: backwards), fit in
 * `width` columns, and the columns they take. The one loop that measures while it cuts: each part is measured once.
 */
function howManyFit(parts: readonly string[], width: number, from = 0, step: 1 | -1 = 1): { count: number; width: number } {
  let used = 0;
  let count = 0;
  for (let at = from; at >= 0 && at < parts.length; at += step) {
    const next = graphemeWidth(parts[at] ?? '');
    if (used + next > width) break;
    used += next;
    count++;
  }
  return { count, width: used };
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
  const parts = [...graphemes(text)];
  const kept = howManyFit(parts, width - 1);
  return { text: `${parts.slice(0, kept.count).join('')}…`, width: kept.width + 1 };
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
  const start = howManyFit(parts, headWidth);
  const end = howManyFit(parts, width - 1 - start.width, parts.length - 1, -1);
  const shown = `${parts.slice(0, start.count).join('')}…${parts.slice(parts.length - end.count).join('')}`;
  return { text: shown, width: start.width + 1 + end.width };
}

/**
 * Text cut into pieces of at most `width` columns, in order, each as long as fits; a grapheme wider than `width`
 * is a piece of its own. Never splits a grapheme; linear in the text.
 */
export function piecesOfWidth(text: string, width: number): string[] {
  if (PRINTABLE_ASCII.test(text) && width >= 1) {
    return Array.from({ length: Math.ceil(text.length / width) }, (_, index) => text.slice(index * width, (index + 1) * width));
  }
  const parts = [...graphemes(text)];
  const pieces: string[] = [];
  for (let at = 0; at < parts.length; ) {
    const count = Math.max(1, howManyFit(parts, width, at).count);
    pieces.push(parts.slice(at, at + count).join(''));
    at += count;
  }
  return pieces;
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

/**
 * Text broken into lines of at most `width` columns at its spaces, for prose (a notice, a heading): a word is never cut
 * unless it is wider than a line by itself (a long URL), then it is cut into pieces of the width. The text's own leading
 * spaces stay; lines after the first start with `indent`.
 */
export function wrapWords(text: string, width: number, indent = ''): string[] {
  if (displayWidth(text) <= width || width < 2) return [text];
  const lead = /^ */.exec(text)?.[0] ?? '';
  const lines: string[] = [];
  let line = lead;
  let empty = true;
  for (const word of text.slice(lead.length).split(' ')) {
    const start = lines.length === 0 ? lead : indent;
    if (!empty && displayWidth(line) + 1 + displayWidth(word) <= width) {
      line += ` ${word}`;
      continue;
    }
    if (!empty) {
      lines.push(line);
      line = indent;
    }
    const room = Math.max(1, width - displayWidth(lines.length === 0 ? start : indent));
    const pieces = displayWidth(word) > room ? piecesOfWidth(word, room) : [word];
    for (const piece of pieces.slice(0, -1)) {
      lines.push(`${line}${piece}`);
      line = indent;
    }
    line += pieces.at(-1) ?? '';
    empty = false;
  }
  lines.push(line);
  return lines;
}
