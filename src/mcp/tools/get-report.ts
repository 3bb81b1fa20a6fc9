// get_report: one report by id or by URL (the newest of that page, as `reports show --url`), with its failed checks.
import { reportUrlProblem } from '../../api/model/report-url.js';
import { declareShow, newestOfUrl } from '../../cli/commands/reports/show.js';
import { argumentError, optionArg, positionalArg } from '../arguments.js';
import { argumentOf, declared, flagOf } from '../declarations.js';
import { reportDetail } from '../report-rows.js';
import { cutValue, jsonBytes, MAX_TEXT_BYTES } from '../results.js';
import { defineTool } from '../tool.js';

const show = declared(declareShow);
/** How long a check's value or errors may be, as JSON, tried in turn until the report fits the budget. */
const VALUE_CHARS = [2_000, 500, 100, 0];

export const getReport = defineTool({
  name: 'get_report',
  description:
    'One report by id or by url: its fields (result the label, score the number), how many checks passed, ' +
    'and each failed check with its importance, value and errors.',
  args: [positionalArg(argumentOf(show, 'id'), 'id'), optionArg(flagOf(show, '--url'), 'url')],
  writes: false,
  hints: { readOnlyHint: true },
  async run(call, args) {
    if ((args.id === undefined) === (args.url === undefined)) {
      throw argumentError(args.id === undefined ? 'id' : 'url', args.id === undefined ? 'give id or url' : 'give id or url, not both');
    }
    const problem = args.url === undefined ? undefined : reportUrlProblem(args.url);
    if (problem) throw argumentError('url', problem);
    const client = call.ctx.client();
    const id = args.id ?? String((await newestOfUrl(call.ctx, args.url as string)).id);
    const record = await client.reports.show(id);
    for (const chars of VALUE_CHARS) {
      const detail = reportDetail(record, chars);
      if (jsonBytes(detail) <= MAX_TEXT_BYTES)
        return { value: chars === VALUE_CHARS[0] ? detail : { ...detail, note: `values cut to ${chars} characters to fit the answer` } };
    }
    // Fields of its own beyond any report's size (a broken or hostile service): its identity, and where to read it whole.
    return {
      value: {
        id: record.id ?? null,
        url: cutValue(record.url, 500) ?? null,
        note: `the report is too large to answer here; \`rsapi reports show ${id} --json\` prints it whole`,
      },
    };
  },
});
