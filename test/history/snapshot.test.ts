// A snapshot's checks as stored (src/history/snapshot.ts): the failed ones counted from the text's signs alone agree
// with the decoded checks, whatever the ids hold.
import { describe, expect, it } from 'vitest';
import { decodeChecks, encodeChecks, failedCount } from '../../src/history/snapshot.js';
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
