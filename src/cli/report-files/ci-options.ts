// The CI flags as commander declares them: here, apart from the reporter, for the verbs that take some of them and
// write no CI file of their own (`rsapi audit` hands them to create; `history diff` takes --max-drop).
import { InvalidArgumentError, Option } from '@commander-js/extra-typings';

/**
 * The CI flags, each declared once: `reports create|list|show` take them all (addCiOptions), `rsapi audit` the ones it
 * has (its baseline is always the job's last run), in the same words.
 */
export const CI_OPTIONS = {
  junit: () => new Option('--junit <path>', 'write a JUnit XML file: one test case per report, failed when it fails a gate'),
  summary: () => new Option('--summary <path>', 'append a Markdown summary to this file (made for $GITHUB_STEP_SUMMARY)'),
  html: () => new Option('--html <path>', 'write one self-contained HTML page of the run: charts, regressions, a table of every report (opens offline)'),
  maxDrop: () =>
    new Option('--max-drop <points>', 'against the baseline: exit 10 when a score fell by more than this or a result got worse').argParser(maxDropParser),
  failOnNewFailures: () => new Option('--fail-on-new-failures', 'against the baseline: exit 10 when a check that passed in it fails now'),
  requireBaseline: () =>
    new Option('--require-baseline', "with the job's last run as the baseline: exit 4 when there is none (a history lost), rather than pass as its first run"),
};

// A blank value (Number(' ') is 0) never comes here: refuseEmptyValues (options.ts) refuses it for every flag first.
export function maxDropParser(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('--max-drop must be a number of points, 0 or more.');
  return n;
}
