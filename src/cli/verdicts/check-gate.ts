// The check gates (--fail-on-check, --fail-on-importance): which reports fail a named check, or one of an importance.
import { plural } from '../../plural.js';
import { checkName, type CheckId, type Importance } from '../../api/model/checks.js';
import type { Finding } from './judge.js';
import type { GateImportance } from '../flags/verb-options.js';

export interface CheckGateOptions {
  failOnCheck?: CheckId[];
  failOnImportance?: GateImportance;
}

/** The subjects of a finding that are not a check of the report. */
const NOT_CHECKS = new Set(['checks', 'score', 'result']);

/** Whether any check flag was given: then reports must carry per-check results to be judged. */
export function checkGateActive(options: CheckGateOptions): boolean {
  return (options.failOnCheck?.length ?? 0) > 0 || options.failOnImportance !== undefined;
}

/** `Meta description (meta_description)`: the name people read and the id a flag takes. */
export function namedCheck(id: string): string {
  const name = checkName(id);
  return name === id ? id : `${name} (${id})`;
}

/**
 * The check flags' counts over the reports, from their findings. A report without per-check results, beside others
 * that have them, fails (it cannot be shown to pass); when no report carried any, the gate cannot be judged at all
 * (the seed dialect): `unjudged`.
 */
export class CheckGate {
  private seen = 0;
  private withChecks = 0;
  private failures = 0;
  private withoutChecks = 0;

  constructor(private readonly options: CheckGateOptions) {}

  get active(): boolean {
    return checkGateActive(this.options);
  }

  /**
   * Counts one report from the findings the check flags gave it (judgeReport: `checks` when it carried no per-check
   * results, a check id for each failed check they name); returns why it failed (empty when it passed).
   */
  count(flagFindings: readonly Finding[]): string[] {
    if (!this.active) return [];
    this.seen++;
    if (flagFindings.some((finding) => finding.subject === 'checks')) {
      this.withoutChecks++;
      this.failures++;
      return [`no per-check results (${this.flags()})`];
    }
    this.withChecks++;
    const failed = flagFindings.filter((finding) => !NOT_CHECKS.has(finding.subject)).map((finding) => finding.subject);
    if (failed.length === 0) return [];
    this.failures++;
    return [`failed ${failed.map(namedCheck).join(', ')} (${this.flags()})`];
  }

  /** Reports were judged and not one carried per-check results: the service cannot answer these flags. */
  get unjudged(): boolean {
    return this.active && this.seen > 0 && this.withChecks === 0;
  }

  get failed(): boolean {
    return this.active && !this.unjudged && this.failures > 0;
  }

  /** The verdict's part for the check flags, e.g. `2 of 5 reports fail a check of high importance (--fail-on-importance high)`. */
  verdictPart(): string {
    const of = `of ${plural(this.seen, 'report')}`;
    const missing = this.withoutChecks > 0 ? `, ${this.withoutChecks} of them with no per-check results` : '';
    return `${this.failures} ${of} ${this.failures === 1 ? 'fails' : 'fail'} ${this.what()}${missing} (${this.flags()})`;
  }

  /** The one line when the service sent no per-check results at all. */
  unjudgedLine(): string {
    return `rsapi: gate not judged: the service sent no per-check results (\`results\`) with its reports, so ${this.flags()} cannot be judged`;
  }

  private what(): string {
    const { failOnCheck, failOnImportance } = this.options;
    const parts: string[] = [];
    if (failOnCheck && failOnCheck.length > 0) parts.push(failOnCheck.length === 1 ? `the check ${failOnCheck[0]}` : 'a listed check');
    if (failOnImportance) parts.push(`a check of ${importanceWords(failOnImportance)}`);
    return parts.join(' or ');
  }

  private flags(): string {
    const { failOnCheck, failOnImportance } = this.options;
    const flags: string[] = [];
    if (failOnCheck && failOnCheck.length > 0) flags.push(`--fail-on-check ${failOnCheck.join(',')}`);
    if (failOnImportance) flags.push(`--fail-on-importance ${failOnImportance}`);
    return flags.join(', ');
  }
}

function importanceWords(importance: Importance): string {
  return importance === 'high' ? 'high importance' : `${importance} importance or higher`;
}
