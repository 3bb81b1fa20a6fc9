// Summing up reports for `reports stats`: counts per result, score minimum/median/mean/maximum, 10-point histogram.
// Each report is read through the record model: the same figures whether it came in the seed dialect or phpRank's.
import { readReport } from '../../api/model/report-model.js';
import { ProjectGroups } from './project-groups.js';
import type { ServiceRecord } from '../types.js';

/** Ten buckets: 0-9, 10-19, ..., 80-89 and 90-100 (a perfect 100 joins the top bucket). */
export const BUCKETS = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i === 9 ? 100 : i * 10 + 9 }));

/** The index in BUCKETS of a score's bucket (scores outside 0-100 join the nearest end). */
export function bucketOf(score: number): number {
  return Math.min(9, Math.max(0, Math.floor(score / 10)));
}

export interface ReportStats {
  /** The project, with --by project; undefined for the whole set. */
  project?: string;
  reports: number;
  good: number;
  decent: number;
  bad: number;
  /** Reports whose result is missing or not one of good, decent, bad. */
  other: number;
  /** Reports that had a numeric score (the others count in `reports` but not in the score figures). */
  scored: number;
  min?: number;
  median?: number;
  mean?: number;
  max?: number;
  /** Reports per bucket of BUCKETS, in order. */
  histogram: number[];
}

/** Collects reports as they arrive; memory grows by one number a scored report. */
export class StatsCollector {
  private readonly groups: ProjectGroups<{ counts: Record<string, number>; scores: number[] }>;

  constructor(byProject: boolean) {
    this.groups = new ProjectGroups(byProject, () => ({ counts: {}, scores: [] }));
  }

  add(record: ServiceRecord): void {
    const { label, score } = readReport(record);
    const key = label ?? 'other';
    for (const target of this.groups.talliesOf(record)) {
      target.counts[key] = (target.counts[key] ?? 0) + 1;
      if (score !== undefined && Number.isFinite(score)) target.scores.push(score);
    }
  }

  /** The whole set's figures. */
  total(): ReportStats {
    return summarise(this.groups.all.counts, this.groups.all.scores);
  }

  /** One entry a project, by name ('' for reports without a project, last). */
  perProject(): ReportStats[] {
    return this.groups.perProject().map(([project, group]) => ({ project, ...summarise(group.counts, group.scores) }));
  }
}

function summarise(counts: Record<string, number>, scores: number[]): ReportStats {
  const sorted = Float64Array.from(scores).sort();
  const histogram = BUCKETS.map(() => 0);
  let sum = 0;
  for (const score of sorted) {
    sum += score;
    const bucket = bucketOf(score);
    histogram[bucket] = (histogram[bucket] ?? 0) + 1;
  }
  const n = sorted.length;
  const good = counts.good ?? 0;
  const decent = counts.decent ?? 0;
  const bad = counts.bad ?? 0;
  const other = counts.other ?? 0;
  return {
    reports: good + decent + bad + other,
    good,
    decent,
    bad,
    other,
    scored: n,
    min: n > 0 ? sorted[0] : undefined,
    median: n === 0 ? undefined : n % 2 === 1 ? sorted[(n - 1) / 2] : ((sorted[n / 2 - 1] ?? 0) + (sorted[n / 2] ?? 0)) / 2,
    mean: n > 0 ? Math.round((sum / n) * 100) / 100 : undefined,
    max: n > 0 ? sorted[n - 1] : undefined,
    histogram,
  };
}
