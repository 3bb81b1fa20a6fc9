// Saying what a list's service did not honour (src/api/list-silences.ts): one warning a flag, after the output.
import type { ListSilences } from '../api/list-silences.js';
import type { RecordKind } from '../output/index.js';
import type { CommandContext } from './context.js';

const NOUN: Record<RecordKind, [string, string]> = { report: ['report', 'reports'], project: ['project', 'projects'] };

/**
 * phpRank ignores a sort field or filter value it does not know, and the records it sends look like an answer to
 * what was asked: each such flag is said once. `how` says what was done with the records (printed, counted, judged).
 */
export function warnSilences(ctx: CommandContext, kind: RecordKind, silences: ListSilences, how: string): void {
  const [one, many] = NOUN[kind];
  for (const silence of silences.found()) {
    const why =
      silence.kind === 'order'
        ? `${many} came back in another order`
        : `${silence.misses} of ${silence.checked} ${silence.checked === 1 ? one : many} ${silence.checked === 1 ? 'does' : 'do'} not match it`;
    ctx.note(`rsapi: warning: the service ignored ${silence.flag} (${why}); ${how}`);
  }
}
