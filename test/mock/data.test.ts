import { describe, expect, it } from 'vitest';
import { formatTimestamp, projectForUrl, resultForScore, scoreForUrl, SEED_PROJECT_HOSTS, seededReports, toReportResource } from '../../src/mock/data.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('seeded reports', () => {
  it('are the same for the same count, whatever the clock says', () => {
    expect(seededReports(63)).toEqual(seededReports(63));
    expect(seededReports(10)).toEqual(seededReports(63).slice(0, 10));
  });

  it('number exactly the count asked for, with ids 1..N', () => {
    expect(seededReports(63).map((report) => report.id)).toEqual(Array.from({ length: 63 }, (_unused, index) => index + 1));
    expect(seededReports(0)).toEqual([]);
  });

  it('cover every result, every privacy value and every seed project', () => {
    const reports = seededReports(63);
    expect(new Set(reports.map((report) => report.result))).toEqual(new Set(['good', 'decent', 'bad']));
    expect(new Set(reports.map((report) => report.privacy))).toEqual(new Set([0, 1, 2]));
    expect(new Set(reports.map((report) => report.project))).toEqual(new Set(SEED_PROJECT_HOSTS));
  });

  it('derive the result from the score and the project from the URL', () => {
    for (const report of seededReports(63)) {
      expect(report.result).toBe(resultForScore(report.score));
      expect(report.project).toBe(projectForUrl(report.url));
      expect(Number.isInteger(report.score) && report.score >= 0 && report.score <= 100).toBe(true);
      for (const date of [report.generated_at, report.created_at, report.updated_at]) expect(date).toMatch(TIMESTAMP);
    }
  });

  it('include a www. URL whose project drops the www.', () => {
    const withWww = seededReports(63).filter((report) => new URL(report.url).hostname.startsWith('www.'));
    expect(withWww.length).toBeGreaterThan(0);
    expect(withWww.every((report) => report.project === 'example.com')).toBe(true);
  });

  it('order differently by generation date than by id', () => {
    const byGenerated = [...seededReports(63)].sort((a, b) => a.generated_at.localeCompare(b.generated_at)).map((r) => r.id);
    expect(byGenerated).not.toEqual([...byGenerated].sort((a, b) => a - b));
  });
});

describe('derivations', () => {
  it('maps scores to results at the 80 and 50 thresholds', () => {
    expect([100, 80, 79, 50, 49, 0].map(resultForScore)).toEqual(['good', 'good', 'decent', 'decent', 'bad', 'bad']);
  });

  it('gives a URL the same score every time, within 0..100', () => {
    const score = scoreForUrl('https://example.com/a');
    expect(scoreForUrl('https://example.com/a')).toBe(score);
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThanOrEqual(100);
    const scores = new Set(['a', 'b', 'c', 'd', 'e', 'f'].map((path) => scoreForUrl(`https://example.com/${path}`)));
    expect(scores.size).toBeGreaterThan(1);
  });

  it('names the project after the lower-cased host without www.', () => {
    expect(projectForUrl('https://WWW.Example.COM:8443/x?y=1')).toBe('example.com');
    expect(projectForUrl('http://wwwsite.example/')).toBe('wwwsite.example');
  });

  it('formats dates as Laravel does, with microseconds', () => {
    expect(formatTimestamp(new Date(Date.UTC(2026, 10, 20, 9, 14, 3, 45)))).toBe('2026-11-20T09:14:03.045000Z');
  });

  it('leaves the password out of the public representation', () => {
    const withPassword = seededReports(3)[2];
    expect(withPassword?.password).toBeDefined();
    expect(withPassword && Object.keys(toReportResource(withPassword))).not.toContain('password');
  });
});
