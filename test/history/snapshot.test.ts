// A snapshot's checks as stored (src/history/snapshot.ts): the failed ones counted from the text's signs alone agree
// with the decoded checks, whatever the ids hold; a record's checks encoded split as the store keeps them.
import { describe, expect, it } from 'vitest';
import { seededInts } from '../helpers/random.js';
import {
  ChecksEncoder,
  decodeChecks,
  encodeChecks,
  failedCount,
  joinChecks,
  snapshotOf,
  splitChecks,
  storedTime,
  timeOfStored,
  valueHash,
} from '../../src/history/snapshot.js';
import type { CheckState } from '../../src/history/types.js';

const check = (id: string, passed: boolean, hash = '0a1b2c3d'): CheckState => ({ id, passed, hash });

describe('failedCount', () => {
  it.each([
    ['none', []],
    ['one passed', [check('title', true)]],
    ['one failed', [check('title', false)]],
    ['ids with signs and spaces in them', [check('meta-description', true), check('odd id+1', false), check('-', false), check('a+', true)]],
    ['hashes that hold no sign', [check('x', false, '--------'), check('y', true, '++++++++')]],
  ])('%s: as many as the decoded checks that failed', (_name, checks) => {
    const text = encodeChecks(checks);
    expect(failedCount(text)).toBe(decodeChecks(text)?.filter((c) => !c.passed).length);
    expect(failedCount(text)).toBe(checks.filter((c) => !c.passed).length);
  });

  it('none stored: undefined', () => {
    expect(failedCount(undefined)).toBeUndefined();
  });
});

describe('valueHash', () => {
  // FNV-1a as histories have stored it since the first schema: a value hashed otherwise would read as changed.
  const reference = (text: string) => {
    let hash = 0x811c9dc5;
    for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
    return (hash >>> 0).toString(16).padStart(8, '0');
  };
  it.each([
    ['a string as it is', 'utf-8', 'utf-8'],
    ['nothing as the empty text', undefined, ''],
    ['a number as its text', 0.82, '0.82'],
    ['null as its text', null, 'null'],
    ['true as its text', true, 'true'],
    ['false as its text', false, 'false'],
    ['an empty list as its JSON', [], '[]'],
    ['a list as its JSON', [1, 'two'], '[1,"two"]'],
    ['an empty object as its JSON', {}, '{}'],
    ['an object as its JSON', { h1: ['Welcome'], h2: ['About us'] }, '{"h1":["Welcome"],"h2":["About us"]}'],
    ['text outside Latin-1', 'Ünïcødé ✓', 'Ünïcødé ✓'],
  ])('%s: 8 hex digits of FNV-1a', (_name, value, text) => {
    expect(valueHash(value)).toBe(reference(text));
  });

  it('keeps its leading zeros', () => {
    const small = Array.from({ length: 5_000 }, (_, i) => `v${i}`).find((text) => reference(text).startsWith('0'));
    expect(small).toBeDefined();
    expect(valueHash(small)).toBe(reference(small as string));
    expect(valueHash(small)).toHaveLength(8);
  });
});

describe('ChecksEncoder', () => {
  // What the store kept before the encoder split it: each check's encodeChecks part, one space apart.
  const textOf = (results: Record<string, unknown>) => {
    const checks = Object.entries(results).flatMap(([id, entry]) =>
      typeof entry === 'object' && entry !== null && typeof (entry as { passed?: unknown }).passed === 'boolean'
        ? [check(id, (entry as { passed: boolean }).passed, valueHash((entry as { value?: unknown }).value))]
        : [],
    );
    return checks.length === 0 ? undefined : encodeChecks(checks);
  };

  it("gives splitChecks' parts of the text (the text itself when it does not split), one encoder over 3,000 generated records", () => {
    const next = seededInts(45);
    const encoder = new ChecksEncoder();
    const sets = [
      ['title', 'h1', 'a b', 'meta-description'],
      ['title', 'h1', 'a b'],
      ['title', 'h1', 'a b', 'meta-description', 'x'],
      ['title', '', 'h1'],
      ['h1', 'title'],
    ];
    const kinds = { split: 0, text: 0, none: 0 };
    let set = sets[0] as string[];
    for (let round = 0; round < 3_000; round++) {
      // Mostly the same set as the record before, as in a run; sometimes another.
      if (next(8) === 0) set = sets[next(sets.length)] as string[];
      const results: Record<string, unknown> = {};
      for (const id of set) {
        const roll = next(20);
        results[id] =
          roll === 0
            ? { value: 'no passed' }
            : roll === 1
              ? 'not an object'
              : { passed: next(2) === 1, value: next(3) === 0 ? { n: next(9) } : `v${next(50)}` };
      }
      const text = textOf(results);
      const encoded = encoder.encode(results);
      const split = text === undefined ? undefined : splitChecks(text);
      if (text === undefined) {
        kinds.none++;
        expect(encoded).toBeUndefined();
      } else if (split === undefined) {
        kinds.text++;
        expect(encoded).toEqual({ ids: null, checks: text });
      } else {
        kinds.split++;
        expect(encoded).toEqual({ ids: split.ids, checks: split.states });
        const { ids, checks } = encoded as { ids: string; checks: string };
        expect(joinChecks(ids.split(' '), checks)).toBe(text);
      }
    }
    expect(Math.min(kinds.split, kinds.text)).toBeGreaterThan(100);
    expect(encoder.encode({})).toBeUndefined();
    expect(encoder.encode('not an object')).toBeUndefined();
  });

  it("a reading's snapshot gives the same text, checks and split as one made of the text", () => {
    const record = {
      id: 7,
      url: 'https://example.com/a',
      generated_at: '2026-01-01T00:00:00.000000Z',
      results: { title: { passed: true, value: 'x' }, 'a b': { passed: false, value: 3 } },
    };
    const snapshot = snapshotOf(record, 'https://rank.example.com');
    const text = textOf(record.results);
    expect(snapshot?.checksText).toBe(text);
    expect(snapshot?.checkSplit).toEqual(splitChecks(text as string));
    expect(snapshot?.checks).toEqual(decodeChecks(text));
    const odd = snapshotOf({ ...record, results: { '': { passed: true, value: 'x' } } }, 'https://rank.example.com');
    expect(odd?.checksText).toBe(textOf({ '': { passed: true, value: 'x' } }));
    expect(odd?.checkSplit).toBeUndefined();
  });
});

describe('storedTime', () => {
  // Short only where timeOfStored makes the same text again: what the ISO form of the time it reads gives back.
  const givesBack = (text: string) => {
    const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{6})Z$/.exec(text);
    if (!match) return false;
    const ms = Date.parse(`${text.slice(0, 19)}Z`);
    return Number(match[1]) >= 1970 && Number.isSafeInteger(ms * 1000 + 999_999) && new Date(ms).toISOString().slice(0, 19) === text.slice(0, 19);
  };

  it.each([
    ['a leap day', '2024-02-29T00:00:00.000000Z'],
    ['no leap day in 2023', '2023-02-29T00:00:00.000000Z'],
    ['none in 2100', '2100-02-29T00:00:00.000000Z'],
    ['one in 2000', '2000-02-29T00:00:00.000000Z'],
    ['month 13', '2026-13-01T00:00:00.000000Z'],
    ['month 0', '2026-00-01T00:00:00.000000Z'],
    ['day 0', '2026-01-00T00:00:00.000000Z'],
    ['April 31', '2026-04-31T00:00:00.000000Z'],
    ['24:00', '2026-01-01T24:00:00.000000Z'],
    ['minute 60', '2026-01-01T23:60:00.000000Z'],
    ['a leap second', '2016-12-31T23:59:60.000000Z'],
    ['before 1970', '1969-12-31T23:59:59.999999Z'],
    ['the epoch', '1970-01-01T00:00:00.000000Z'],
    ['past what a double holds in microseconds', '9999-12-31T23:59:59.999999Z'],
    ['the last microsecond of a year', '2026-12-31T23:59:59.999999Z'],
    ['a text of its own', '~gtujgwlc00'],
    ['a marked one', '~~x'],
    ['an SQL date', '2026-01-31 09:00:00'],
    ['a space for the T', '2026-01-31 09:00:00.000000Z'],
    ['a letter among the seconds', '2026-01-31T09:00:0x.000000Z'],
    ['a letter among the microseconds', '2026-01-31T09:00:00.00000aZ'],
    ['a sign for a digit', '2026-01-31T09:00:00.-00001Z'],
    ['no Z', '2026-01-31T09:00:00.0000001'],
  ])('%s: read back as it was, short where it can be', (_name, text) => {
    expect(timeOfStored(storedTime(text))).toBe(text);
    expect(storedTime(text).length < text.length).toBe(givesBack(text));
  });

  it('reads back 20,000 generated times as they were', () => {
    const next = seededInts(46);
    const two = (n: number) => String(n).padStart(2, '0');
    for (let round = 0; round < 20_000; round++) {
      const text = `${1960 + next(400)}-${two(next(14))}-${two(next(33))}T${two(next(26))}:${two(next(62))}:${two(next(62))}.${String(next(1_000_000)).padStart(6, '0')}Z`;
      expect(timeOfStored(storedTime(text)), text).toBe(text);
      expect(storedTime(text).startsWith('~'), text).toBe(givesBack(text));
    }
  });
});
