// One call for a command that has its reports in hand (history diff): judged by the flags and the assertions file,
// verdict lines and failing URLs on stderr, the Code Quality file written, the exit code returned.
import type { ApiRecord } from '../../api/model/record.js';
import type { CommandContext } from '../runtime/context.js';
import type { ExitCodeValue } from '../runtime/exit-codes.js';
import { finishGate, Gate, type GateSetup } from './gates.js';

/**
 * Judges `records` as `reports list` judges what it reads: `setup` is the gate flags plus what checkVerdictFlags
 * returned (`{ ...opts, ...checkVerdictFlags(ctx, opts) }`, called in the verb's plan). 0 reports fail unless
 * `allowEmpty`. Returns 0, 8 (check rules with no per-check results) or 10; `code` (the command's own) wins when not 0.
 */
export async function judgeRecords(
  ctx: CommandContext,
  records: Iterable<ApiRecord>,
  setup: GateSetup,
  code?: ExitCodeValue,
  /** Code Quality issues found beside the rules (history diff's comparison), written in the same file. */
  moreIssues: Parameters<typeof finishGate>[4] = [],
): Promise<ExitCodeValue> {
  const gate = new Gate(setup);
  for (const record of records) gate.check(record);
  return finishGate(ctx, gate, undefined, code, moreIssues);
}
