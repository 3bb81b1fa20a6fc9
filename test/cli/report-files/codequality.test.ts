// --codequality (src/cli/report-files/codequality.ts): GitLab's issues for the judged URLs and for what a baseline gate
// failed on, each with a fingerprint that stays the same from run to run.
import { describe, expect, it } from 'vitest';
import { baselineIssues, renderCodeQuality, type CodeQualityIssue } from '../../../src/cli/report-files/codequality.js';
import { compareWithBaseline, newestByUrl } from '../../../src/cli/report-files/baseline.js';

const checks = (failing: string[]) =>
  Object.fromEntries(['title', 'meta_description', 'http2'].map((id) => [id, { passed: !failing.includes(id), importance: 'high', value: id }]));

const then = [
  { id: 1, url: 'example.com/a', result: 90, results: checks([]) },
  { id: 2, url: 'example.com/b', result: 80, results: checks(['http2']) },
];
const now = [
  { id: 1, url: 'example.com/a', result: 70, results: checks(['title', 'meta_description']) },
  { id: 2, url: 'example.com/b', result: 80, results: checks(['http2']) },
];

describe('Code Quality issues of a baseline gate', () => {
  const baseline = { path: 'run 4 of the history', run: 4, byUrl: newestByUrl(then), hasChecks: true };

  it('one issue per URL and newly failing check, and one per fall past --max-drop; none without a baseline gate', () => {
    const comparison = compareWithBaseline(baseline, now, { maxDrop: 5, failOnNewFailures: true });
    const issues = baselineIssues(comparison);
    expect(issues.map((issue) => [issue.location.path, issue.check_name])).toEqual([
      ['example.com/a', 'rsapi/since-baseline/score'],
      ['example.com/a', 'rsapi/since-baseline/meta_description'],
      ['example.com/a', 'rsapi/since-baseline/title'],
    ]);
    expect(issues[2]?.description).toBe('example.com/a: Title (title) fails now; it passed in run 4 of the history (--fail-on-new-failures)');
    expect(baselineIssues(compareWithBaseline(baseline, now, {}))).toEqual([]);
  });

  it('fingerprints stay the same from run to run (not from the value) and differ per URL and check', () => {
    const first = baselineIssues(compareWithBaseline(baseline, now, { failOnNewFailures: true }));
    const later = baselineIssues(compareWithBaseline({ ...baseline, path: 'run 9 of the history' }, now, { failOnNewFailures: true }));
    expect(later.map((issue) => issue.fingerprint)).toEqual(first.map((issue) => issue.fingerprint));
    expect(new Set(first.map((issue) => issue.fingerprint)).size).toBe(first.length);
  });

  it('the file holds the verdicts and the baseline issues together', () => {
    const comparison = compareWithBaseline(baseline, now, { failOnNewFailures: true });
    expect(JSON.parse(renderCodeQuality([], comparison))).toHaveLength(2);
    expect(renderCodeQuality([])).toBe('[]\n');
  });

  it('a run that failed over nothing is one issue of the run, with the same fingerprint every week', () => {
    const why = 'the sitemap listed no page: a gate over nothing proves nothing (--allow-empty lets it pass)';
    const [issue] = JSON.parse(renderCodeQuality([], undefined, why)) as CodeQualityIssue[];
    expect(issue).toMatchObject({ description: why, check_name: 'rsapi/run', severity: 'major', location: { path: 'rsapi' } });
    expect(JSON.parse(renderCodeQuality([], undefined, 'no URL left after --include/--exclude'))[0].fingerprint).toBe(issue?.fingerprint);
  });
});
