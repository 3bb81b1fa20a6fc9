// The end of a run that judged reports: the gate's verdict said (verdicts/gates.ts), then the CI files written from the
// one verdict (the reporter's JUnit, summary, HTML and baseline comparison) and the Code Quality file, which holds what
// the gate, the assertions file and a comparison failed on. The verdicts room judges; this room writes.
import type { CommandContext } from '../runtime/context.js';
import { ExitCode, type ExitCodeValue } from '../runtime/exit-codes.js';
import type { Gate, GateSetup } from '../verdicts/gates.js';
import type { ApiRecord } from '../../api/model/record.js';
import type { CodeQualityIssue } from './codequality.js';
import type { CiReporter } from './reporter.js';

/**
 * The gate's verdict line, the failing URLs and exit code; with CI flags, the baseline's too, and the JUnit, summary,
 * HTML and Code Quality files written. `moreIssues`: Code Quality issues found beside the gate (history diff's
 * comparison), written in the same file.
 */
export async function finishGate(
  ctx: CommandContext,
  gate: Gate,
  ci?: CiReporter,
  code: ExitCodeValue = ExitCode.ok,
  moreIssues: readonly CodeQualityIssue[] = [],
): Promise<ExitCodeValue> {
  // Loaded here, not above: a plain list loads this module's chunk, never the gate's (test/e2e/startup.test.ts).
  const { sayGate } = await import('../verdicts/gates.js');
  const judged = await sayGate(ctx, gate, code);
  const exitCode = ci ? await ci.finish(ctx, gate, judged) : judged;
  // After the baseline's comparison (ci.finish): what a baseline gate failed on is a finding too.
  if (gate.codequality !== undefined) {
    const [{ renderCodeQuality }, files] = await Promise.all([import('./codequality.js'), import('../runtime/write.js')]);
    const overNothing = ci?.emptyFailure ?? (gate.empty && code === ExitCode.ok ? gate.fileVerdict() : undefined);
    await files.writeFileAtomically(gate.codequality, renderCodeQuality(gate.verdicts.judged, ci?.comparison, overNothing, moreIssues), ctx.secrets);
  }
  return exitCode;
}

/**
 * One call for a command that has its reports in hand (history diff): judged by the flags and the assertions file
 * (`setup`: the gate flags plus what checkVerdictFlags returned), verdict lines and failing URLs on stderr, the Code
 * Quality file written, the exit code returned. 0 reports fail unless `allowEmpty`. Returns 0, 8 (check rules with no
 * per-check results) or 10; `code` (the command's own) wins when not 0.
 */
export async function judgeRecords(
  ctx: CommandContext,
  records: Iterable<ApiRecord>,
  setup: GateSetup,
  code?: ExitCodeValue,
  moreIssues: readonly CodeQualityIssue[] = [],
): Promise<ExitCodeValue> {
  const { Gate } = await import('../verdicts/gates.js');
  const gate = new Gate(setup);
  for (const record of records) gate.check(record);
  return finishGate(ctx, gate, undefined, code, moreIssues);
}
