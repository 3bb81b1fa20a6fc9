// Secret-named fields (src/output/masking.ts): masked at any depth and in arrays, text and numbers alike; the value
// itself returned when there is nothing to mask.
import { describe, expect, it } from 'vitest';
import { MASKED, maskSecretFields } from '../../src/output/masking.js';

describe('maskSecretFields', () => {
  it('returns the very value when no field is a secret (names that only contain "password" are not)', () => {
    const record = { id: 1, url: 'a.example', results: { title: { passed: true, value: 'password' } }, passwords: 'x', xpassword: 'y', list: [null, 2] };
    expect(maskSecretFields(record)).toBe(record);
  });

  it('masks password, report_password and PAGE_PASSWORD holding text or a number, at any depth and inside arrays', () => {
    const record = { password: 'a', nested: { report_password: 42, deeper: [{ PAGE_PASSWORD: 'c', keep: 'd' }] }, empty_password: '', none_password: null };
    expect(maskSecretFields(record)).toEqual({
      password: MASKED,
      nested: { report_password: MASKED, deeper: [{ PAGE_PASSWORD: MASKED, keep: 'd' }] },
      empty_password: '',
      none_password: null,
    });
    expect(record.password).toBe('a');
  });

  it('looks inside an object held by a secret-named field rather than masking it whole', () => {
    expect(maskSecretFields({ password: { hint: 'h', old_password: 'p' } })).toEqual({ password: { hint: 'h', old_password: MASKED } });
  });
});
