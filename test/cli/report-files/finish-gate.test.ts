// judgeRecords: the one call a command with reports in hand (history diff) makes to judge them as reports list does.
import { describe, expect, it } from 'vitest';
import { CommandContext } from '../../../src/cli/runtime/context.js';
import { createInvocation } from '../../../src/cli/runtime/invocation.js';
import { judgeRecords } from '../../../src/cli/report-files/finish-gate.js';
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
    const twoSites = parseAssertions(
      '{ "assert": [ { "match": "example.com/blog/**", "checks": { "title": "error" } }, { "match": "EXAMPLE.COM/b", "minScore": 0 } ] }',
      'rules.json',
    );
    const passing = await judged([phprankReport(2, 'example.com/b', ['title'])], { assertions: twoSites });
    expect(passing.code).toBe(0);
    expect(passing.stderr).toContain('rsapi: assertions: the rule at rules.json:1 (match "example.com/blog/**") matched no report\n');
  });

  it('a file none of whose rules matched a report (a typo in every glob) fails unless allowEmpty', async () => {
    const records = [phprankReport(2, 'example.com/b', ['title'])];
    const typo = await judged(records, { assertions });
    expect(typo.code).toBe(10);
    expect(typo.stderr).toMatch(
      /^rsapi: assertions failed \(rules\.json\): no rule matched any of the 1 report: assertions over nothing prove nothing \(--allow-empty lets it pass\)\n/,
    );
    expect((await judged(records, { assertions, allowEmpty: true })).code).toBe(0);
  });

  it('a file or a rule that asserts nothing is refused when read', () => {
    expect(() => parseAssertions('{ "assert": [] }', 'rules.json')).toThrow(/rules\.json:1: "assert" holds no rule: the file asserts nothing/);
    expect(() => parseAssertions('{ "assert": [ { "match": "**" } ] }', 'rules.json')).toThrow(/rules\.json:1: the rule asserts nothing/);
    expect(() => parseAssertions('{ "assert": [ { "checks": {} } ] }', 'rules.json')).toThrow(/the rule asserts nothing/);
    expect(parseAssertions('{ "assert": [ { "checks": { "title": "off" } } ] }', 'rules.json').rules).toHaveLength(1);
  });

  it('over no record fails unless allowEmpty', async () => {
    expect((await judged([], { assertions })).code).toBe(10);
    expect((await judged([], { assertions, allowEmpty: true })).code).toBe(0);
  });
});
