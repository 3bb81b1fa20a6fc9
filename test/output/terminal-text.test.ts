// The terminal-safety rule: every control, escape sequence and bidi override shown escaped, nothing dropped.
import { describe, expect, it } from 'vitest';
import { hasTerminalControls, singleLine, terminalJson, terminalLines, terminalText } from '../../src/output/terminal-text.js';

describe('terminalText', () => {
  it.each([
    ['ESC sequences (clear screen, OSC title)', '\u001b[2J\u001b]0;t\u0007', '\\x1b[2J\\x1b]0;t\\x07'],
    ['line breaks and tabs', 'a\nb\rc\td', 'a\\nb\\rc\\td'],
    ['DEL and C1 controls (8-bit CSI)', '\u007f\u009b31m\u0085', '\\x7f\\x9b31m\\x85'],
    ['bidi overrides, isolates and marks', '\u202ea\u202ab\u2066c\u2069\u200e\u200f\u061c', '\\u202ea\\u202ab\\u2066c\\u2069\\u200e\\u200f\\u061c'],
    ['NUL', 'a\u0000b', 'a\\x00b'],
  ])('escapes %s visibly', (_name, input, shown) => {
    expect(terminalText(input)).toBe(shown);
    expect(hasTerminalControls(terminalText(input))).toBe(false);
  });

  it('leaves ordinary text alone, accents, emoji and right-to-left letters included', () => {
    const text = 'https://exämple.com/ü — 👍 שלום';
    expect(terminalText(text)).toBe(text);
  });
});

describe('terminalLines', () => {
  it('keeps the line breaks between lines and escapes the rest', () => {
    expect(terminalLines('one \u001b[31m\ntwo\u202e')).toBe('one \\x1b[31m\ntwo\\u202e');
  });
});

describe('terminalJson', () => {
  it('escapes what JSON.stringify leaves raw as \\u escapes: the document still parses to the same value', () => {
    const value = { a: '\u009b\u202e\u007f', b: 'plain', c: '\u001b' };
    const json = JSON.stringify(value, null, 2);
    const shown = terminalJson(json);
    expect(hasTerminalControls(shown.replace(/\n/g, ''))).toBe(false);
    expect(shown.split('\n')).toHaveLength(json.split('\n').length);
    expect(JSON.parse(shown)).toEqual(value);
  });
});

describe('singleLine', () => {
  it('escapes only line breaks (an identifier in a pipe stays one line, otherwise exact)', () => {
    expect(singleLine('a\nb\r\u001b')).toBe('a\\nb\\r\u001b');
  });
});
