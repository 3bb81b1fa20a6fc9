// history_trend and history_diff: `rsapi history trend` and `rsapi history diff` over the same history (--history,
// RSAPI_HISTORY or the profile's `history`), their JSON documents as the answer, cut to fit.
import { parseJson } from '../../api/http/json.js';
import { declareDiff, historyDiffRun } from '../../cli/commands/history/diff.js';
import { declareTrend, historyTrendRun } from '../../cli/commands/history/trend.js';
import { optionArg, positionalArg } from '../arguments.js';
import { argumentOf, declared, flagOf } from '../declarations.js';
import { fitted } from '../results.js';
import type { ToolCall } from '../call-context.js';
import { defineTool } from '../tool.js';

const trend = declared(declareTrend);
const diff = declared(declareDiff);

/** What the history verb printed (a JSON document; the call's output is json), and the run's notes. */
function printedDocument(call: ToolCall): Record<string, unknown> {
  const printed = call.stdout().trim();
  return printed === '' ? {} : (parseJson(printed) as Record<string, unknown>);
}

export const historyTrend = defineTool({
  name: 'history_trend',
  description: `${trend.description()}: one point per recorded run (score, failed checks). Give url or project.`,
  args: [
    positionalArg(argumentOf(trend, 'url'), 'url'),
    optionArg(flagOf(trend, '--project'), 'project'),
    optionArg(flagOf(trend, '--since'), 'since'),
    optionArg(flagOf(trend, '--check'), 'check'),
    optionArg(flagOf(trend, '--service'), 'service'),
  ],
  writes: false,
  hints: { readOnlyHint: true },
  async run(call, args) {
    await historyTrendRun(call.ctx, {
      url: args.url,
      project: args.project,
      since: args.since as number | undefined,
      check: args.check,
      service: args.service as string | undefined,
    });
    const points = printedDocument(call);
    const list = Array.isArray(points) ? points : [];
    // Cut to fit from the oldest end: the newest points are the ones kept (oldest first, as the CLI gives them).
    return {
      value: fitted([...list].reverse(), (kept, left) => ({
        points: [...kept].reverse(),
        ...(left > 0 ? { more: `${left} earlier points left out; narrow with since (e.g. "30d")` } : {}),
      })),
    };
  },
});

export const historyDiff = defineTool({
  name: 'history_diff',
  description: `${diff.description()}. Without runs: the last two complete runs of the same selection on the same service.`,
  args: [positionalArg(argumentOf(diff, 'a'), 'a'), positionalArg(argumentOf(diff, 'b'), 'b'), optionArg(flagOf(diff, '--since'), 'since')],
  writes: false,
  hints: { readOnlyHint: true },
  async run(call, args) {
    const run = (id: string | undefined) => (id === undefined ? undefined : Number(id));
    await historyDiffRun(call.ctx, { a: run(args.a), b: run(args.b), since: args.since as number | undefined });
    const document = printedDocument(call);
    const changes = Array.isArray(document.changes) ? (document.changes as unknown[]) : [];
    return {
      value: fitted(changes, (kept, left) => ({
        ...document,
        changes: kept,
        ...(left > 0 ? { more: `${left} more changed URLs left out; history diff --json in the CLI gives them all` } : {}),
      })),
    };
  },
});
