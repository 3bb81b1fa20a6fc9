// The CI gates (--fail-on, --min-score, --fail-on-check, --fail-on-importance): judged over every report a command processed, one verdict line.
// Reports are read through the record model, so a phpRank report (numeric `result`, no `score`) is judged by the
// label and score it stands for, exactly as the same report in the seed dialect.
import { plural } from '../plural.js';
import { formatScore, readReport, RESULT_RANK } from '../api/report-model.js';
import { CheckGate } from './check-gate.js';
import type { CiReporter } from './ci/reporter.js';
import type { CommandContext } from './context.js';
import { ExitCode, type ExitCodeValue } from './exit-codes.js';
import type { GateOptions } from './verb-options.js';

export class Gate {
  private seen = 0;
  private resultFailures = 0;
  private scoreFailures = 0;
  /** Failures for want of a result or score at all: counted as failures, and said apart. */
  private missingResults = 0;
  private missingScores = 0;
  /** --fail-on-check, --fail-on-importance: judged on the per-check results. */
  private readonly checks: CheckGate;

  constructor(private readonly options: GateOptions) {
    this.checks = new CheckGate(options);
  }

  get active(): boolean {
    return this.options.failOn !== undefined || this.options.minScore !== undefined || this.checks.active;
  }

  /** A check flag was given and no report carried per-check results: the verdict says so, and exit is 8, not 0 or 10. */
  get unjudged(): boolean {
    return this.checks.unjudged;
  }

  /** Judges one report; returns why it failed (empty when it passed), for per-report output such as JUnit. */
  check(record: Record<string, unknown>): string[] {
    this.seen++;
    const reasons: string[] = [];
    const { failOn, minScore } = this.options;
    const { label, score } = readReport(record);
    if (failOn !== undefined) {
      const rank = label === undefined ? undefined : RESULT_RANK.get(label);
      // A report without a known result cannot be shown to be better: it fails the gate.
      if (rank === undefined) this.missingResults++;
      if (rank === undefined || rank >= RESULT_RANK.get(failOn)!) {
        this.resultFailures++;
        reasons.push(rank === undefined ? `no known result (--fail-on ${failOn})` : `result ${label} (--fail-on ${failOn})`);
      }
    }
    if (minScore !== undefined) {
      if (score === undefined) this.missingScores++;
      if (score === undefined || score < minScore) {
        this.scoreFailures++;
        reasons.push(score === undefined ? `no score (--min-score ${minScore})` : `score ${formatScore(score)} below ${minScore} (--min-score ${minScore})`);
      }
    }
    reasons.push(...this.checks.check(record));
    return reasons;
  }

  get failed(): boolean {
    return this.resultFailures > 0 || this.scoreFailures > 0 || this.checks.failed;
  }

  verdict(): string {
    const { failOn, minScore } = this.options;
    const parts: string[] = [];
    const of = `of ${plural(this.seen, 'report')}`;
    if (failOn !== undefined) {
      const worse = failOn === 'bad' ? 'bad' : `${failOn} or worse`;
      const missing = this.missingResults > 0 ? `, ${this.missingResults} of them with no known result` : '';
      parts.push(`${this.resultFailures} ${of} ${this.resultFailures === 1 ? 'is' : 'are'} ${worse}${missing} (--fail-on ${failOn})`);
    }
    if (minScore !== undefined) {
      const missing = this.missingScores > 0 ? `, ${this.missingScores} of them with no score` : '';
      parts.push(`${this.scoreFailures} ${of} score below ${minScore}${missing} (--min-score ${minScore})`);
    }
    // Still one line: the other gates' figures follow what could not be judged.
    if (this.checks.unjudged) return `${this.checks.unjudgedLine()}${parts.length > 0 ? `; besides: ${parts.join('; ')}` : ''}`;
    if (this.checks.active) parts.push(this.checks.verdictPart());
    return `rsapi: gate ${this.failed ? 'failed' : 'passed'}: ${parts.join('; ')}`;
  }
}

/** The gate's verdict line and exit code; with CI flags, the baseline's too, and the JUnit and summary files written. */
export async function finishGate(ctx: CommandContext, gate: Gate, ci?: CiReporter, code: ExitCodeValue = ExitCode.ok): Promise<ExitCodeValue> {
  if (gate.active) ctx.note(gate.verdict());
  // Check flags the service cannot answer (no per-check results) are no pass: exit 8, as for paging it lacks.
  const judged = code !== ExitCode.ok ? code : gate.unjudged ? ExitCode.server : gate.failed ? ExitCode.gate : code;
  return ci ? ci.finish(ctx, gate, judged) : judged;
}
