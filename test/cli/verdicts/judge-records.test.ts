// judgeRecords: the one call a command with reports in hand (history diff) makes to judge them as reports list does.
import { describe, expect, it } from 'vitest';
import { CommandContext } from '../../../src/cli/runtime/context.js';
import { createInvocation } from '../../../src/cli/runtime/invocation.js';
import { judgeRecords } from '../../../src/cli/verdicts/judge-records.js';
import { parseAssertions } from '../../../src/cli/verdicts/assertions-file.js';
import { phprankReport } from '../../helpers/phprank-checks.js';
import { testTerminal } from '../../helpers/run.js';

async function judged(records: Record<string, unknown>[], setup: Parameters<typeof judgeRecords>[2]) {
  const { terminal, stderr, cleanup } = testTerminal({ env: { GITHUB_ACTIONS: 'true' } });
  const ctx = new CommandContext(createInvocation({ terminal, signal: new AbortController().signal }), { color: false });
  try {
    return { code: await judgeRecords(ctx, records, setup), stderr: stderr.text };
  } finally {
    await ctx.close();
    cleanup();
  }
}

describe('judgeRecords', () => {
  const assertions = parseAssertions('{ "assert": [ { "match": "example.com/blog/**", "checks": { "title": "error" } } ] }', 'rules.json');

  it('fails (10) by the file, naming the URL on stderr and as an annotation; passes (0) what the rules do not match', async () => {
    const failing = await judged([phprankReport(1, 'example.com/blog/a', ['title']), phprankReport(2, 'example.com/b', ['title'])], { assertions });
    expect(failing.code).toBe(10);
    expect(failing.stderr).toContain('rsapi:   example.com/blog/a: title: too long (max 60)\n');
    expect(failing.stderr).toContain('::error title=rsapi%3A example.com/blog/a::title: too long (max 60)\n');
    expect(failing.stderr).not.toContain('example.com/b:');
    const passing = await judged([phprankReport(2, 'example.com/b', ['title'])], { assertions });
    expect(passing.code).toBe(0);
  });

  it('over no record fails unless allowEmpty', async () => {
    expect((await judged([], { assertions })).code).toBe(10);
    expect((await judged([], { assertions, allowEmpty: true })).code).toBe(0);
  });
});
