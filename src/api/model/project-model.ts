// The one reading of a project, whatever dialect it came in: phpRank's figures (a count and a sum of scores) and the
// average they give. Human renderers show a project through it; json/ndjson pass projects through untouched.
import { toNumber, type ApiRecord } from './record.js';

/**
 * A project's average score as phpRank's own pages show it: its `result` (the SUM of its reports' scores, often a
 * string) over `reports` (their count), to one decimal. Undefined when the service sent no such figures (seed dialect).
 */
export function projectAverage(project: ApiRecord): number | undefined {
  const reports = toNumber(project.reports);
  const sum = toNumber(project.result);
  if (reports === undefined || sum === undefined || reports <= 0) return undefined;
  return Math.round((sum / reports) * 10) / 10;
}

/**
 * The project as human renderers show it: a project with phpRank's figures gains its `average` (null when it cannot
 * be computed, so every row of a list has the column); any other project, and the record itself, are not changed.
 */
export function modelledProject(project: ApiRecord): ApiRecord {
  const hasFigures = Object.hasOwn(project, 'reports') && Object.hasOwn(project, 'result');
  if (!hasFigures || Object.hasOwn(project, 'average')) return project;
  return { ...project, average: projectAverage(project) ?? null };
}
