import { describe, expect, it } from 'vitest';
import { CHECK_IDS, checkName, failedChecks, reportChecks } from '../../../src/api/model/checks.js';
import { formatScore, labelForScore, modelledRecord, readReport } from '../../../src/api/model/report-model.js';

describe('readReport: one reading of both dialects', () => {
  it.each([
    ['seed: label and score', { result: 'decent', score: 71 }, 'decent', 71, 'seed'],
    ['seed: score as a string', { result: 'good', score: '88.00' }, 'good', 88, 'seed'],
    ['seed: label in another case', { result: ' Bad ', score: 3 }, 'bad', 3, 'seed'],
    ['seed: no score', { result: 'bad' }, 'bad', undefined, 'seed'],
    ['phpRank: integer result', { result: 45 }, 'bad', 45, 'phprank'],
    ['phpRank: numeric string', { result: '80' }, 'good', 80, 'phprank'],
    ['phpRank: an unrounded float is read as stored (79)', { result: 78.57142857142857 }, 'decent', 79, 'phprank'],
    ['phpRank: 79 is decent', { result: 79 }, 'decent', 79, 'phprank'],
    ['phpRank: 49 is decent', { result: 49 }, 'decent', 49, 'phprank'],
    ['phpRank: 79.3 after a create is decent (stored and listed as 79)', { result: 79.3 }, 'decent', 79, 'phprank'],
    ['phpRank: 79.5 after a create is good (stored as 80)', { result: 79.5 }, 'good', 80, 'phprank'],
    ['phpRank: 48.9 is decent (stored as 49)', { result: 48.9 }, 'decent', 49, 'phprank'],
    ['phpRank: 48.4 is bad (stored as 48)', { result: 48.4 }, 'bad', 48, 'phprank'],
    ['phpRank: 0', { result: 0 }, 'bad', 0, 'phprank'],
    ['neither', { url: 'x' }, undefined, undefined, 'seed'],
    ['garbage result', { result: 'n/a' }, undefined, undefined, 'seed'],
  ])('%s', (_name, record, label, score, dialect) => {
    expect(readReport(record)).toEqual({ label, score, dialect });
  });

  it('thresholds: good > 79, decent 49-79, bad < 49', () => {
    expect([100, 79.5, 79, 49, 48.99, 0].map(labelForScore)).toEqual(['good', 'good', 'decent', 'decent', 'bad', 'bad']);
  });

  it('modelledRecord shows the label under result and the number under score, the record itself untouched', () => {
    const record = { id: 1, url: 'example.com', result: 78.57142857142857 };
    expect(modelledRecord(record)).toEqual({ id: 1, url: 'example.com', result: 'decent', score: 79 });
    expect(Object.keys(modelledRecord({ id: 3, result: 45, privacy: 0, generated_at: 'x' }))).toEqual(['id', 'result', 'score', 'privacy', 'generated_at']);
    expect(record).toEqual({ id: 1, url: 'example.com', result: 78.57142857142857 });
    const seed = { id: 2, result: 'good', score: 90 };
    expect(modelledRecord(seed)).toBe(seed);
    expect(formatScore(78.57142857142857)).toBe('78.6');
    expect(formatScore(45)).toBe('45');
  });
});

describe('checks', () => {
  it('every one of the 36 check ids has a name in words', () => {
    expect(CHECK_IDS).toHaveLength(36);
    for (const id of CHECK_IDS) expect(checkName(id)).not.toBe(id);
    expect(checkName('meta_description')).toBe('Meta description');
    expect(checkName('something_new')).toBe('something_new');
  });

  it('reads results tolerantly and orders failures high importance first', () => {
    const record = {
      results: {
        title: { passed: true, importance: 'high', value: 'Home' },
        favicon: { passed: false, importance: 'low', value: null, errors: { missing: null } },
        meta_description: { passed: false, importance: 'high', value: null, errors: { missing: null } },
        load_time: { passed: false, importance: 'medium', value: 6.2, errors: { too_slow: 6.2 } },
        broken: 'not an object',
      },
    };
    const checks = reportChecks(record)!;
    expect(checks).toHaveLength(4);
    expect(failedChecks(checks).map((c) => c.id)).toEqual(['meta_description', 'load_time', 'favicon']);
    expect(reportChecks({ result: 'good' })).toBeUndefined();
    expect(reportChecks({ results: {} })).toBeUndefined();
  });
});
