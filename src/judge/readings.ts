// The readings the judge compares, from what a face holds: an API record (a run's report, a baseline file's, a
// baseline run's as snapshotRecord gives it). A history snapshot is read by history/diff.ts (snapshotReading).
import { importanceRank, reportChecks } from '../api/model/checks.js';
import type { ApiRecord } from '../api/model/record.js';
import { readReport } from '../api/model/report-model.js';
import type { PageReading } from './compare.js';

/** A record's reading: its score and result as the record model reads them, its checks most important first. */
export function recordReading(record: ApiRecord): PageReading {
  const { label, score } = readReport(record);
  const outcomes = reportChecks(record);
  const checks = outcomes?.sort((a, b) => importanceRank(a.importance) - importanceRank(b.importance) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { score, label, checks };
}
