// The CI gates (--fail-on, --min-score, --fail-on-check, --fail-on-importance) and the assertions file: judged over
// every report a command processed, one verdict line each, then the failing URLs named (src/cli/verdicts/).
// Reports are read through the record model, so a phpRank report (numeric `result`, no `score`) is judged by the
// label and score it stands for, exactly as the same report in the seed dialect.
import { plural } from '../../plural.js';
import { formatScore, readReport } from '../../api/model/report-model.js';
import { CheckGate } from './check-gate.js';
import type { CommandContext } from '../runtime/context.js';
import { ExitCode, type ExitCodeValue } from '../runtime/exit-codes.js';
import type { GateOptions } from '../flags/verb-options.js';
import { emptyLine, nearestProject, type Selection } from './empty.js';
import { Verdicts, type UrlVerdict } from './judge.js';
import { annotationLines, namedFailureLines, runAnnotation } from './named-failures.js';
import type { AssertionSet } from './rules.js';

/** The gate flags, and what the verdict flags brought (the assertions file read, --allow-empty, --codequality). */
export type GateSetup = GateOptions & {
  assertions?: AssertionSet;
  allowEmpty?: boolean;
  codequality?: string;
  /** What chose the reports, named when none matched. */
  selection?: Selection;
};

export class Gate {
  private seen = 0;
  private resultFailures = 0;
  private scoreFailures = 0;
  /** Failures for want of a result or score at all: counted as failures, and said apart. */
  private missingResults = 0;
  private missingScores = 0;
  /** --fail-on-check, --fail-on-importance: judged on the per-check results. */
  private readonly checks: CheckGate;
  /** Each report judged by the assertions file and the flags merged per key: what failed, named per URL. */
  readonly verdicts: Verdicts;

  constructor(private readonly options: GateSetup) {
    this.checks = new CheckGate(options);
    this.verdicts = new Verdicts({ gate: options, assertions: options.assertions });
  }

  /** A gate flag or an assertions file was given. */
  get active(): boolean {
    return this.flagged || this.options.assertions !== undefined;
  }

  private get flagged(): boolean {
    return this.options.failOn !== undefined || this.options.minScore !== undefined || this.checks.active;
  }

  get selection(): Selection | undefined {
    return this.options.selection;
  }

  /** --codequality's path, when given. */
  get codequality(): string | undefined {
    return this.options.codequality;
  }

  /** A gate or assertion judged no report at all, and --allow-empty was not given: it fails. */
  get empty(): boolean {
    return this.active && this.seen === 0 && this.options.allowEmpty !== true;
  }

  /** A check flag was given and no report carried per-check results: the verdict says so, and exit is 8, not 0 or 10. */
  get unjudged(): boolean {
    return this.checks.unjudged;
  }

  /**
   * Judges one report by the one per-report rule (the file's rules with the flags as one more: judgeReport); returns
   * why it failed (empty when it passed), for per-report output such as JUnit. The flags' counts are read off the
   * flags' findings, never judged again.
   */
  check(record: Record<string, unknown>): string[] {
    this.seen++;
    const findings = this.verdicts.judge(record);
    const byFlags = findings.filter((finding) => finding.byFlag && finding.severity === 'error');
    const reasons: string[] = [];
    const { failOn, minScore } = this.options;
    const { label, score } = readReport(record);
    if (failOn !== undefined && byFlags.some((finding) => finding.subject === 'result')) {
      // A report without a known result cannot be shown to be better: it fails the gate.
      this.resultFailures++;
      if (label === undefined) this.missingResults++;
      reasons.push(label === undefined ? `no known result (--fail-on ${failOn})` : `result ${label} (--fail-on ${failOn})`);
    }
    if (minScore !== undefined && byFlags.some((finding) => finding.subject === 'score')) {
      this.scoreFailures++;
      if (score === undefined) this.missingScores++;
      reasons.push(score === undefined ? `no score (--min-score ${minScore})` : `score ${formatScore(score)} below ${minScore} (--min-score ${minScore})`);
    }
    reasons.push(...this.checks.count(byFlags));
    // The file's errors, for per-report output (JUnit); the flags' are said above in their own words.
    for (const finding of findings) if (finding.severity === 'error' && !finding.byFlag) reasons.push(`${finding.text} (${finding.source})`);
    return reasons;
  }

  get failed(): boolean {
    return this.flagsFailed || this.assertionsFailed || this.empty;
  }

  /** A gate flag failed on some report (the flags' verdict line says this; the file has a line of its own). */
  private get flagsFailed(): boolean {
    return this.resultFailures > 0 || this.scoreFailures > 0 || this.checks.failed;
  }

  /** An error rule of the assertions file failed on some report, or no rule of it matched any (a typo'd glob). */
  private get assertionsFailed(): boolean {
    return this.assertionsOverNothing || this.verdicts.failures().some(failsByFile);
  }

  /** Reports were judged, and no rule of the file matched one of them (without --allow-empty): it proves nothing. */
  private get assertionsOverNothing(): boolean {
    const rules = this.options.assertions?.rules ?? [];
    return rules.length > 0 && this.seen > 0 && this.verdicts.unmatchedRules().length === rules.length && this.options.allowEmpty !== true;
  }

  /** The file's check rules found no per-check results on any report: they cannot be judged (exit 8, as the check flags). */
  get assertionsUnjudged(): boolean {
    return this.options.assertions !== undefined && this.verdicts.checksUnjudged;
  }

  /** `rsapi: assertions failed (rsapi.config.json): 3 of 8 reports fail an error rule; 2 reports only warn`. */
  private assertionsLine(): string {
    if (this.assertionsOverNothing) {
      const of = `any of the ${plural(this.seen, 'report')}`;
      return `rsapi: assertions failed (${this.options.assertions?.path}): no rule matched ${of}: assertions over nothing prove nothing (--allow-empty lets it pass)`;
    }
    const failing = this.verdicts.failures().filter(failsByFile).length;
    const warned = this.verdicts.warnings().length;
    const outcome = this.assertionsUnjudged ? 'not judged' : failing > 0 ? 'failed' : 'passed';
    const warns = warned > 0 ? `; ${plural(warned, 'report')} only warn` : '';
    const unjudged = this.assertionsUnjudged ? '; the service sent no per-check results (`results`), so its check rules cannot be judged' : '';
    const of = `of ${plural(this.seen, 'report')}`;
    return `rsapi: assertions ${outcome} (${this.options.assertions?.path}): ${failing} ${of} ${failing === 1 ? 'fails' : 'fail'} an error rule${warns}${unjudged}`;
  }

  /**
   * The lines after the verdict: the assertions' own verdict, the failing URLs (worst first, what failed and the value)
   * and, on GitHub Actions, the same as workflow annotations.
   */
  verdictLines(env: NodeJS.ProcessEnv): string[] {
    if (!this.active || this.seen === 0) return [];
    const lines: string[] = [];
    const failures = this.verdicts.failures();
    const warnings = this.verdicts.warnings();
    // Beside the flags' verdict, the file's own; alone, the file's is the verdict line.
    if (this.options.assertions && this.flagged) lines.push(this.assertionsLine());
    // Some rules matched and these did not: likely a typo'd glob, said rather than failed (one file may serve several sites).
    if (!this.assertionsOverNothing) {
      for (const rule of this.verdicts.unmatchedRules()) lines.push(`rsapi: assertions: the rule at ${rule.source} (match "${rule.match}") matched no report`);
    }
    lines.push(...namedFailureLines(failures, warnings));
    if (env.GITHUB_ACTIONS === 'true') lines.push(...annotationLines(failures, warnings));
    return lines;
  }

  /** The verdict as the run's files (summary, HTML, JUnit) give it: the flags' line and, beside it, the file's. */
  fileVerdict(): string {
    const lines = [this.verdict()];
    if (this.options.assertions && this.flagged && !this.empty) lines.push(this.assertionsLine());
    return lines.map((line) => line.replace(/^rsapi: /, '')).join('; ');
  }

  verdict(): string {
    if (this.empty) return emptyLine(this.options.selection);
    if (!this.flagged) return this.assertionsLine();
    const { failOn, minScore } = this.options;
    const parts: { text: string; failed: boolean }[] = [];
    const of = `of ${plural(this.seen, 'report')}`;
    if (failOn !== undefined) {
      const worse = failOn === 'bad' ? 'bad' : `${failOn} or worse`;
      const missing = this.missingResults > 0 ? `, ${this.missingResults} of them with no known result` : '';
      const text = `${this.resultFailures} ${of} ${this.resultFailures === 1 ? 'is' : 'are'} ${worse}${missing} (--fail-on ${failOn})`;
      parts.push({ text, failed: this.resultFailures > 0 });
    }
    if (minScore !== undefined) {
      const missing = this.missingScores > 0 ? `, ${this.missingScores} of them with no score` : '';
      parts.push({ text: `${this.scoreFailures} ${of} score below ${minScore}${missing} (--min-score ${minScore})`, failed: this.scoreFailures > 0 });
    }
    // Still one line: the other gates' figures follow what could not be judged.
    if (this.checks.unjudged) return `${this.checks.unjudgedLine()}${parts.length > 0 ? `; besides: ${parts.map((part) => part.text).join('; ')}` : ''}`;
    if (this.checks.active) parts.push({ text: this.checks.verdictPart(), failed: this.checks.failed });
    if (!this.flagsFailed) return `rsapi: gate passed: ${parts.map((part) => part.text).join('; ')}`;
    // A failed line leads with what failed; the gates that held follow.
    const held = parts.filter((part) => !part.failed).map((part) => part.text);
    const failed = parts.filter((part) => part.failed).map((part) => part.text);
    return `rsapi: gate failed: ${failed.join('; ')}${held.length > 0 ? `; besides: ${held.join('; ')}` : ''}`;
  }
}

/** Whether a report fails an error rule of the assertions file (not only a flag). */
function failsByFile(verdict: UrlVerdict): boolean {
  return verdict.findings.some((f) => f.severity === 'error' && !f.byFlag);
}

/**
 * The gate's verdict said (its line, the failing URLs named, the GitHub annotations) and the exit code it gives the run
 * (`code`, the command's own, wins when not 0). Writes no file: the CI files and Code Quality are written by
 * report-files/finish-gate.ts, which calls this first.
 */
export async function sayGate(ctx: CommandContext, gate: Gate, code: ExitCodeValue = ExitCode.ok): Promise<ExitCodeValue> {
  if (gate.active) {
    // A gate over nothing: only when the command's own work went well (a run whose every URL failed says that instead).
    if (!gate.empty || code === ExitCode.ok) ctx.note(gate.verdict());
    if (gate.empty && code === ExitCode.ok) {
      const near = await nearestProject(ctx, gate.selection);
      if (near !== undefined) ctx.note(`hint: did you mean ${near}? (\`rsapi projects list\` lists the projects)`);
    }
    for (const line of gate.verdictLines(ctx.io.env)) ctx.note(line);
    // A failure no URL's annotation shows (a gate over nothing, check rules not judged): one for the run.
    const unannotated = (gate.failed || gate.unjudged || gate.assertionsUnjudged) && gate.verdicts.failures().length === 0;
    if (ctx.io.env.GITHUB_ACTIONS === 'true' && unannotated && code === ExitCode.ok) ctx.note(runAnnotation(gate.fileVerdict()));
  }
  // Check flags or rules the service cannot answer (no per-check results) are no pass: exit 8, as for paging it lacks.
  const unjudged = gate.unjudged || gate.assertionsUnjudged;
  return code !== ExitCode.ok ? code : unjudged ? ExitCode.server : gate.failed ? ExitCode.gate : code;
}
