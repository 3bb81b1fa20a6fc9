// Terminal width of text: grapheme clusters measured whole, however long the text, and never split when text is cut.
import { describe, expect, it } from 'vitest';
import { wrapLines } from '../../../src/output/check-lines.js';
import { displayWidth, fitMiddle, fitToWidth, piecesOfWidth } from '../../../src/output/table/width.js';

const FLAG = '🇫🇷';
const HEART = '❤\uFE0F';

describe('displayWidth of long text (segmented piece by piece)', () => {
  it('keeps clusters whole across the pieces: 300 flags are 600 columns', () => {
    expect(displayWidth(FLAG.repeat(300))).toBe(600);
    expect(displayWidth(`a${FLAG.repeat(300)}`)).toBe(601);
  });

  it('measures a cluster longer than a piece as one: a letter under 2,000 combining marks is one column', () => {
    expect(displayWidth(`x${'e\u0301'.repeat(10)}${'\u0300'.repeat(2000)}y`)).toBe(12);
  });
});

describe('piecesOfWidth', () => {
  it('cuts ASCII into pieces of the width', () => {
    expect(piecesOfWidth('abcdefg', 3)).toEqual(['abc', 'def', 'g']);
  });

  it('never splits a cluster: an emoji with its variation selector moves whole to the next piece', () => {
    expect(piecesOfWidth(`abcdefg${HEART}xyz`, 8)).toEqual(['abcdefg', `${HEART}xyz`]);
  });

  it('gives a cluster wider than the width a piece of its own', () => {
    expect(piecesOfWidth('漢漢', 1)).toEqual(['漢', '漢']);
  });

  it('puts every character of long text in some piece, in order', () => {
    const text = `${'漢字'.repeat(400)}${FLAG.repeat(100)}`;
    const pieces = piecesOfWidth(text, 7);
    expect(pieces.join('')).toBe(text);
    expect(Math.max(...pieces.map(displayWidth))).toBeLessThanOrEqual(7);
  });
});

describe('cutting to a width', () => {
  it('fitToWidth and fitMiddle keep clusters whole', () => {
    expect(fitToWidth(`ab${FLAG}cd`, 4)).toEqual({ text: 'ab…', width: 3 });
    expect(fitMiddle(`ab${FLAG}cd${FLAG}ef`, 7, 3)).toEqual({ text: `ab…${FLAG}ef`, width: 7 });
  });
});

describe('wrapLines', () => {
  it('splits a word longer than a line between clusters, not inside one', () => {
    expect(wrapLines(`abcdefg${HEART}xyz`, 8, '', '')).toEqual(['abcdefg', `${HEART}xyz`]);
  });
});
