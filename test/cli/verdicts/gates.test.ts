// The CI gates judged over records: good > decent > bad, scores as numbers or strings, missing values fail and are said.
import { describe, expect, it } from 'vitest';
import { Gate } from '../../../src/cli/verdicts/gates.js';
import { parseAssertions } from '../../../src/cli/verdicts/assertions-file.js';

function judge(options: ConstructorParameters<typeof Gate>[0], records: Record<string, unknown>[]) {
  const gate = new Gate(options);
  for (const record of records) gate.check(record);
  return { failed: gate.failed, verdict: gate.verdict() };
}

describe('Gate', () => {
  it("the files' verdict holds the flags' line and the assertions file's, each failing on its own", () => {
    const assertions = parseAssertions('{ "assert": [ { "result": "good" } ] }', 'rules.json');
    const gate = new Gate({ minScore: 30, assertions });
    for (const record of [
      { url: 'https://a.example/', score: 20, result: 'bad' },
      { url: 'https://b.example/', score: 50, result: 'decent' },
    ])
      gate.check(record);
    expect(gate.fileVerdict()).toBe(
      'gate failed: 1 of 2 reports score below 30 (--min-score 30); assertions failed (rules.json): 2 of 2 reports fail an error rule',
    );
    expect(gate.verdict()).toBe('rsapi: gate failed: 1 of 2 reports score below 30 (--min-score 30)');
  });

  it.each([
    ['bad', [{ result: 'good' }, { result: 'decent' }], false],
    ['bad', [{ result: 'bad' }], true],
    ['decent', [{ result: 'decent' }], true],
    ['decent', [{ result: 'good' }], false],
    ['good', [{ result: 'good' }], true],
  ] as const)('--fail-on %s over %j fails: %s', (failOn, records, failed) => {
    expect(judge({ failOn }, [...records]).failed).toBe(failed);
  });

  it('--min-score compares numbers, also sent as strings', () => {
    expect(judge({ minScore: 70 }, [{ score: '71' }, { score: 70 }]).failed).toBe(false);
    expect(judge({ minScore: 70 }, [{ score: '69.5' }]).failed).toBe(true);
  });

  it('a missing result or score fails the gate and is said apart', () => {
    const result = judge({ failOn: 'bad', minScore: 50 }, [{ result: 'good', score: 90 }, { result: null }]);
    expect(result.failed).toBe(true);
    expect(result.verdict).toBe(
      'rsapi: gate failed: 1 of 2 reports is bad, 1 of them with no known result (--fail-on bad); 1 of 2 reports score below 50, 1 of them with no score (--min-score 50)',
    );
  });

  it('a failed verdict leads with the gate that failed; the gates that held follow "besides"', () => {
    const records = [
      { result: 'good', score: 90 },
      { result: 'decent', score: 40 },
    ];
    expect(judge({ failOn: 'bad', minScore: 50 }, records).verdict).toBe(
      'rsapi: gate failed: 1 of 2 reports score below 50 (--min-score 50); besides: 0 of 2 reports are bad (--fail-on bad)',
    );
  });

  it('a passing verdict', () => {
    expect(judge({ failOn: 'decent' }, [{ result: 'good' }]).verdict).toBe('rsapi: gate passed: 0 of 1 report are decent or worse (--fail-on decent)');
  });

  it.each([
    [{ result: 45 }, 'bad'],
    [{ result: '80' }, 'good'],
    [{ result: 79.9 }, 'good'],
    [{ result: 79 }, 'decent'],
    [{ result: 49 }, 'decent'],
    [{ result: '48.4' }, 'bad'],
  ])('a phpRank report %j (score as result) is judged as %s', (record, label) => {
    const seed = { result: label, score: Number(record.result) };
    for (const failOn of ['good', 'decent', 'bad'] as const) {
      expect(judge({ failOn }, [record]), `--fail-on ${failOn}`).toEqual(judge({ failOn }, [seed]));
    }
    expect(judge({ minScore: 49 }, [record])).toEqual(judge({ minScore: 49 }, [seed]));
  });

  it('a float score is named to one decimal in a failure reason; a phpRank float is judged as phpRank stores it', () => {
    const gate = new Gate({ failOn: 'decent', minScore: 80 });
    expect(gate.check({ result: 'decent', score: 78.57142857142857 })).toEqual(['result decent (--fail-on decent)', 'score 78.6 below 80 (--min-score 80)']);
    expect(gate.check({ result: 78.57142857142857 })).toEqual(['result decent (--fail-on decent)', 'score 79 below 80 (--min-score 80)']);
  });

  it('is inactive without options', () => {
    expect(new Gate({}).active).toBe(false);
  });
});
