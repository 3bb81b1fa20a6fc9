// A snapshot's checks as stored (src/history/snapshot.ts): the failed ones counted from the text's signs alone agree
// with the decoded checks, whatever the ids hold.
import { describe, expect, it } from 'vitest';
import { seededInts } from '../helpers/random.js';
import { decodeChecks, encodeChecks, failedCount, isJoined, joinChecks, valueHash } from '../../src/history/snapshot.js';
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

describe('isJoined', () => {
  it('says whether a text is joinChecks(ids, states) without making it, over 5,000 generated cases', () => {
    const next = seededInts(44);
    const hex = () => Array.from({ length: 8 }, () => '0123456789abcdef'[next(16)]).join('');
    let joined = 0;
    for (let round = 0; round < 5_000; round++) {
      const ids = Array.from({ length: next(6) }, () => ['title', 'h1', 'a%20b', 'x', ''][next(5)] as string);
      let states = ids.map(() => `${next(2) ? '+' : '-'}${hex()}`).join('');
      if (next(10) === 0) states = states.slice(0, next(states.length + 1));
      const text = joinChecks(ids, states);
      const variants = [text, `${text} `, text.slice(0, -1), text.replace('+', '-'), text.replace(' ', ''), `x${text}`, ''];
      for (const variant of variants) {
        const expected = variant === text;
        if (expected) joined++;
        expect(isJoined(variant, ids, states), `${JSON.stringify(variant)} ${JSON.stringify(ids)} ${states}`).toBe(expected);
      }
    }
    expect(joined).toBeGreaterThan(5_000);
  });
});
